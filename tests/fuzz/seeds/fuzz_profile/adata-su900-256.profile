# ADATA Ultimate SU900 256 GB - SATA 6 Gb/s, SM2258, 3D MLC with a dynamic SLC cache.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
# Note: the SU900 is sold with Micron 3D MLC (its sibling SU800 has TLC);
# set cell=tlc to model the SU800-like TLC variant.
name = adata-su900-256
aliases = su900 adata-su900
description = ADATA Ultimate SU900 256 GB: SATA 6 Gb/s, SMI SM2258 4 ch, Micron 32L 3D MLC, dynamic SLC cache
source = ADATA SU900 product page: 560/520 MB/s, up to 85k/85k IOPS, SLC caching, 3D MLC [unverified]
source = 3DNews SU900 review (3D MLC NAND)
source = ComputerBase SU800 256 GB: same controller, dynamic SLC up to 1/3 of capacity, >400 MB/s until ~90 GB then ~50 MB/s
source = docs/sources.md sections su900, interfaces, nand-timing, slc-cache, idema

iface = sata             # [src]
sata_gen = 3             # [src]
cmd_time = 11us          # fitted to 85k IOPS [calc]
latency = 12us           # [est]

cell = mlc               # [src]
channels = 4             # [src]
dies = 2                 # 8 x 256 Gbit [est]
planes = 2               # [est]
page = 16k               # [est]
pages = 512              # [est]
blocks = 2048            # raw 256 GiB [calc]
channel_rate = 400MB/s   # [est]
t_read = 60us            # [est]
t_prog = 1400us          # 8 x 32 KiB / 1.4 ms = 187 MB/s after the cache [est]
t_erase = 5ms            # [est]
t_read_slc = 35us        # [est]
t_prog_slc = 350us       # SATA-bound in SLC mode [est]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 256060514304  # 256 GB (IDEMA) [src]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 4m        # [est]
trim = on                # [est]
idle = 1ms               # [est]
slc = dynamic            # SLC caching [src]
slc_size = 8%            # ~20 GB when empty [est]

rated_read = 560MB/s     # ADATA product page, unverified [est]
rated_write = 520MB/s    # ADATA product page, unverified [est]
rated_read_iops = 85000  # ADATA product page, unverified [est]
rated_write_iops = 85000 # ADATA product page, unverified [est]
