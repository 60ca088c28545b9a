# Samsung 990 PRO 1 TB - NVMe PCIe 4.0 x4, Pascal controller, 176-layer V-NAND TLC, Intelligent TurboWrite 2.0.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
name = samsung-990pro-1tb
aliases = 990pro samsung-990pro
description = Samsung 990 PRO 1 TB: NVMe PCIe 4.0 x4, Pascal controller 8 ch, 176L V-NAND TLC (16 x 512 Gbit), 1 GB LPDDR4, dynamic TurboWrite SLC
source = docs/sources.md sections 990pro, interfaces, nand-timing, slc-cache, idema (Samsung rating 7450/6900 MB/s, 1.2M/1.55M IOPS; c't 4 TB measured 7.46/6.97 GB/s)

iface = nvme             # [src]
pcie_gen = 4             # [src]
pcie_lanes = 4           # [src]
link_bw = 7450MB/s       # the rated read: PCIe 4.0 x4 carries 7.88 GB/s raw, the drive reaches 7.45 (c't: 7.46 GB/s) [src]
queues = 32              # [est]
queue_depth = 1024       # [est]
cmd_time = 0.8us         # 1.2M IOPS rated random read ceiling of the controller [calc]
cmd_write_time = 0.65us  # 1.55M IOPS rated random write [calc]
latency = 6us            # PCIe 4.0 round trips and interrupt [est]

cell = tlc               # [src]
channels = 8             # [src Pascal: 8 channels]
dies = 2                 # 16 dies of 512 Gbit on 8 channels [calc: 1 TB / 64 GiB]
planes = 4               # [est]
page = 16k               # [est]
pages = 1024             # per block [est]
blocks = 1024            # per plane: raw 1 TiB [calc]
channel_rate = 1600MB/s  # Toggle DDR 5 class interface [est]
t_read = 50us            # 176L TLC [est, docs/sources.md#nand-timing]
t_prog = 655us           # 16 dies x 64 KiB / 655 us = 1.6 GB/s after the cache [est: no published after-cache figure for 1 TB found]
t_erase = 5ms            # [est]
t_read_slc = 30us        # [est]
t_prog_slc = 152us       # fitted to the rated 6900 MB/s in the cache: 16 x 64 KiB / 6.9 GB/s [calc]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 1000204886016 # 1 TB (IDEMA) [src]; spare 9.9 % of the raw 1 TiB [calc]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 8m        # of the 1 GB LPDDR4, most holds the map [est]
trim = on                # [src]
idle = 1ms               # [est]
slc = dynamic            # Intelligent TurboWrite 2.0 [src]
slc_size = 108GB         # [est: about a tenth of the capacity, as Samsung's TurboWrite 2.0 drives; docs/sources.md#990pro]

rated_read = 7450MB/s    # [src]
rated_write = 6900MB/s   # [src]
rated_read_iops = 1200000 # [src 1 TB]
rated_write_iops = 1550000 # [src]
