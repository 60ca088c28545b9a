# OCZ Vertex 120 GB (first generation, 2009) - SATA 3 Gb/s, Indilinx Barefoot, MLC.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
# Barefoot had a hybrid (log-block) FTL with weak small random writes; the model
# approximates it with a 32 KiB mapping unit (4K writes read-modify-write 32 KiB)
# and a slow write command path.
name = ocz-vertex-120
aliases = vertex vertex1 ocz-vertex
description = OCZ Vertex 120 GB: SATA 3 Gb/s, Indilinx Barefoot 4 ch, Samsung 51 nm MLC, 64 MB cache
source = rddatarescue.it: 64 MB cache on 120/250 GB, 32 MB on 30/60 GB
source = OCZ Vertex data sheet: up to 250/180 MB/s (120 GB)
source = AnandTech "Understanding TLC NAND": MLC read 50 us, program 900 us, erase 2 ms
source = PC Perspective, OCZ Vertex beta firmware (2009): writes combined, merge work later
source = docs/sources.md sections vertex, interfaces, nand-timing, idema

iface = sata             # [src]
sata_gen = 2             # [src]
cmd_time = 30us          # [est]
write_after = 400us      # log-block merge per write, after the acknowledgement, ~2.5k small writes/s [est, unfitted]
merge_after = on         # writes taken into DRAM, merges follow (docs/sources.md#vertex) [src form, est]
latency = 20us           # [est]
ctrl_write_bw = 180MB/s  # fitted to the rated write [calc]

cell = mlc               # [src]
channels = 4             # [src]
dies = 8                 # 32 x 32 Gbit [est]
planes = 2               # [est]
page = 4k                # [est]
pages = 128              # [est]
blocks = 4096            # raw 128 GiB [calc]
channel_rate = 70MB/s    # fitted to 250 MB/s reads [calc]
t_read = 60us            # [est]
t_prog = 800us           # [est, AnandTech MLC]
t_erase = 1.5ms          # [est]
suspend = off            # [est]

capacity = 120034123776  # 120 GB (IDEMA) [src]
map_unit = 32k           # see above [est]
gc = greedy              # [est]
write_buffer = 32m       # of the 64 MB cache [est]
trim = on                # [est]
idle = 1ms               # [est]
slc = off                # [est]

rated_read = 250MB/s     # [src]
rated_write = 180MB/s    # [src]
