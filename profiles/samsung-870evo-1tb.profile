# Samsung 870 EVO 1 TB - SATA 6 Gb/s, MKX controller, 128-layer V-NAND TLC, Intelligent TurboWrite.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
name = samsung-870evo-1tb
aliases = 870evo samsung-870evo
description = Samsung 870 EVO 1 TB: SATA 6 Gb/s, MKX 8 ch, 128L V-NAND TLC (16 x 512 Gbit), 1 GB LPDDR4, TurboWrite SLC
source = docs/sources.md sections 870evo, interfaces, nand-timing, slc-cache, idema (Samsung rating 560/530 MB/s, 98k/88k IOPS QD32, 13k/36k QD1; 4 TB: 24 GB cache then 400 MB/s)

iface = sata             # [src]
sata_gen = 3             # [calc 552 MB/s]
cmd_time = 10.2us        # 98k IOPS at QD32 [calc]
cmd_write_time = 11.4us  # 88k IOPS at QD32 [calc]
latency = 12us           # 13k IOPS at QD1 = 77 us per read [calc with t_read]

cell = tlc               # [src]
channels = 8             # MKX [src]
dies = 2                 # 16 dies of 512 Gbit [src]
planes = 4               # [est]
page = 16k               # [est]
pages = 1024             # [est]
blocks = 1024            # raw 1 TiB [calc]
channel_rate = 800MB/s   # [est]
t_read = 55us            # [calc: 77 us QD1 read - latency - command - transfer]
t_prog = 2620us          # 16 x 64 KiB / 2.62 ms = 400 MB/s after the cache [src 4 TB: 400 MB/s sustained; est for 1 TB]
t_erase = 5ms            # [est]
t_read_slc = 35us        # [est]
t_prog_slc = 800us       # the cache outruns SATA [est]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 1000204886016 # [src IDEMA]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 8m        # [est]
trim = on                # [src]
idle = 1ms               # [est]
slc = dynamic            # Intelligent TurboWrite: 6 GB fixed + a dynamic region [src]
slc_size = 42GB          # 6 GB + 36 GB, the 1 TB split of the 970 EVO [est, docs/sources.md#870evo]

rated_read = 560MB/s     # [src]
rated_write = 530MB/s    # [src]
rated_read_iops = 98000  # [src]
rated_write_iops = 88000 # [src]

sync_commit = 3ms        # consumer SATA TLC without power-loss protection, as the 850 EVO [est]
sync_io = 80us           # [est]
