# Samsung 850 EVO 500 GB - SATA 6 Gb/s, 32-layer V-NAND TLC with TurboWrite.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
name = samsung-850evo-500
aliases = 850evo evo850 samsung-850evo
description = Samsung 850 EVO 500 GB: SATA 6 Gb/s, MGX controller 8 ch, 32L V-NAND TLC (32 x 128 Gbit), TurboWrite 6 GB static SLC
source = Samsung 850 EVO data sheet: 540/520 MB/s, 98k/90k IOPS QD32, 10k/40k IOPS QD1, TurboWrite 6 GB (500 GB)
source = AnandTech 8747 (850 EVO review): TurboWrite buffer sizes, 128 Gbit 32L TLC dies (500 GB = 32 dies), 9.1 % OP of raw
source = PCPer (2016): 250 GB drops to ~300 MB/s after the TurboWrite buffer; at 500 GB the TLC rate exceeds SATA
source = wired2fire spec sheet: 512 MB LPDDR2 (500 GB)
source = docs/sources.md sections 850evo, interfaces, nand-timing, slc-cache, dram, idema

iface = sata             # [src]
sata_gen = 3             # 600 MB/s x 0.92 = 552 MB/s practical [calc]
cmd_time = 10us          # fitted to 98k IOPS at QD32 [calc]
cmd_write_time = 11us    # fitted to 90k IOPS at QD32 [calc]
latency = 12us           # AHCI, SATA FIS round trips, interrupt: QD1 read ~100 us [calc from 10k IOPS QD1]

cell = tlc               # [src]
channels = 8             # [src]
dies = 4                 # 32 dies / 8 channels [src]
planes = 2               # [est]
page = 16k               # [est]
pages = 256              # [est]
blocks = 2048            # 16 GiB per die: raw 512 GiB [calc]
channel_rate = 400MB/s   # Toggle DDR 2.0 [est]
t_read = 60us            # [est]
t_prog = 1750us          # 250 GB (16 dies) writes ~300 MB/s after TurboWrite: 16 x 32 KiB / 1.75 ms [calc]
t_erase = 5ms            # [est]
t_read_slc = 35us        # [est]
t_prog_slc = 400us       # [est]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 500107862016  # 500 GB (IDEMA) [src]
scale = dies             # larger models: more dies of the same NAND, 1 TB = 64 dies [src]
slc_size_max = 12GB      # TurboWrite 12 GB on 1 TB [src]; no figure found for 2/4 TB, held at 12 GB [est]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 4m        # [est]
trim = on                # [est]
idle = 1ms               # [est]
slc = static             # TurboWrite [src]
slc_size = 6GB           # TurboWrite, 500 GB [src]

rated_read = 540MB/s     # [src]
rated_write = 520MB/s    # [src]
rated_read_iops = 98000  # [src]
rated_write_iops = 90000 # [src]

# Sync writes: a FUA write or a flush waits for a journal commit (docs/simulator.md, "Sync writes").
sync_commit = 3.2ms      # consumer SATA TLC without power-loss protection: ~1.1-1.2 MB/s of 4K QD1 sync writes (PERC H730P WT 4K Q1T1 1.13-1.18 MB/s) [calc]
sync_io = 80us           # per write in a group commit: 4K QD32 sync writes reach ~5.6k IOPS on one drive [calc]
