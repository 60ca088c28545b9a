# Crucial MX500 1 TB - SATA 6 Gb/s, Silicon Motion SM2258, Micron 64-layer TLC, Dynamic Write Acceleration.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
name = crucial-mx500-1tb
aliases = mx500 crucial-mx500
description = Crucial MX500 1 TB: SATA 6 Gb/s, SM2258 4 ch, Micron 64L TLC (32 x 256 Gbit), 1 GB LPDDR3, dynamic SLC (Dynamic Write Acceleration)
source = docs/sources.md sections mx500, interfaces, nand-timing, slc-cache, idema (Crucial rating 560/510 MB/s; SM2258, 2 x 512 MB LPDDR3; 469 MB/s average write on a secure-erased drive)

iface = sata             # [src]
sata_gen = 3             # 552 MB/s practical [calc]
cmd_time = 10.5us        # 95k IOPS random read at QD32 [calc from the rating, docs/sources.md#mx500]
cmd_write_time = 11us    # 90k IOPS random write at QD32 [calc]
latency = 12us           # AHCI [est, as the 850 EVO]

cell = tlc               # [src]
channels = 4             # SM2258 [src]
dies = 8                 # 32 dies of 256 Gbit on 4 channels [calc]
planes = 2               # [est]
page = 16k               # [src 64L B17A]
pages = 768              # [est]
blocks = 1365            # raw 1 TiB [calc]
channel_rate = 533MB/s   # [est]
t_read = 74us            # Micron 64L TLC, as the SX8200 Pro's [src docs/sources.md#nand-timing]
t_prog = 2330us          # 32 x 32 KiB / 2.33 ms = 450 MB/s once the cache is full [calc from 469 MB/s average over a secure-erased drive]
t_erase = 15ms           # [src B17A]
t_read_slc = 40us        # [est]
t_prog_slc = 600us       # the cache writes faster than SATA carries [est]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 1000204886016 # [src: 1000 GB, 932 GiB usable]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 8m        # [est]
trim = on                # [src]
idle = 1ms               # [est]
slc = dynamic            # Dynamic Write Acceleration [src]
slc_size = 12GB          # [est: no published size for 1 TB found]

rated_read = 560MB/s     # [src]
rated_write = 510MB/s    # [src]
rated_read_iops = 95000  # [est: the commonly quoted rating, not confirmed in the sources]
rated_write_iops = 90000 # [est]

sync_commit = 3ms        # consumer SATA TLC, as the 850 EVO [est]
sync_io = 80us           # [est]
