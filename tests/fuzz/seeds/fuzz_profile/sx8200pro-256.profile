# ADATA XPG SX8200 Pro 256 GB - NVMe PCIe 3.0 x4, TLC with a dynamic SLC cache.
#
# Format: key = value, '#' starts a comment.  Keys are the ssd(...) spec
# parameters (docs/simulator.md).  Each value says where it comes from:
# [src] a cited specification, [calc] derived from one, [est] an estimate.
name = sx8200pro-256
aliases = sx8200pro adata-sx8200pro-256
description = ADATA XPG SX8200 Pro 256 GB: NVMe PCIe 3.0 x4, SMI SM2262EN 8 ch, Micron 64L TLC, dynamic SLC
source = ADATA XPG SX8200 Pro product page and datasheet: up to 3500/3000 MB/s (family), PCIe Gen3x4 NVMe 1.3, SM2262EN, 3D TLC
source = PC Gamer review (2019): 3.5 GB/s is basically the maximum of PCIe 3.0 x4
source = TechPowerUp SX8200 Pro 1 TB review: ~2.7 GB/s until the SLC cache is full, ~1 GB/s direct to TLC, recovers when folded
source = CAES UT81NDQ512G8T datasheet (Micron B17A 64L TLC): tR 74 us, tPROG 1900 us effective, tBERS 15 ms, 16 KiB pages, 4 planes, NV-DDR3 667 MT/s
source = docs/sources.md sections sx8200pro, interfaces, nand-timing, slc-cache, idema (per-die TLC rate ~31-34 MB/s, 256 GB ~8 dies, dynamic SLC ~25-30 GB when empty)

# host interface
iface = nvme             # [src]
pcie_gen = 3             # [src]
pcie_lanes = 4           # [src]; link = 3.94 GB/s x 0.89 protocol efficiency = 3.5 GB/s [calc]
queues = 8               # [est]
queue_depth = 1024       # [est]
cmd_time = 3us           # SM2262EN firmware per command, ~330k IOPS ceiling [est]
latency = 8us            # PCIe round trips, doorbell, interrupt: QD1 4K read ~90 us [calc, docs/sources.md#interfaces]

# NAND: 8 dies of 256 Gbit 64L TLC, one per channel [est from 256 GB / 32 GiB]
cell = tlc               # [src]
channels = 8             # [src]
dies = 1                 # 8 dies of 256 Gbit on 8 channels [est]
planes = 4               # [src B17A]
page = 16k               # [src B17A]
pages = 1152             # per block [est: half the 512 Gbit die's 2304]
blocks = 456             # per plane: raw 256.5 GiB [calc]
channel_rate = 667MB/s   # NV-DDR3 667 MT/s x 8 bit [src]
t_read = 74us            # [src]
t_prog = 1900us          # effective per page [src]; 8 dies x 64 KiB / 1.9 ms = 276 MB/s after the cache [calc]
t_erase = 15ms           # [src]
t_read_slc = 40us        # [est]
t_prog_slc = 440us       # fitted to the rated 1200 MB/s sequential write: 8 x 64 KiB / 1.2 GB/s [calc]
t_suspend = 20us         # [est]
suspend = on             # [est]

# FTL
capacity = 256060514304  # 256 GB (IDEMA LBA count) [src]; spare ratio 7.6 % [calc]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 8m        # [est]
trim = on                # [est]
idle = 1ms               # [est]
slc = dynamic            # [src]
slc_size = 11%           # ~28 GB when empty, shrinks as the drive fills [est, docs/sources.md#sx8200pro]

# rated figures (informational) [src family; 256 GB values unverified: docs/sources.md#sx8200pro]
rated_read = 3500MB/s    # family rating [src]
rated_write = 1200MB/s   # 256 GB rating, unverified [est]
rated_read_iops = 220000 # 256 GB rating, unverified [est]
rated_write_iops = 290000 # 256 GB rating, unverified [est]
