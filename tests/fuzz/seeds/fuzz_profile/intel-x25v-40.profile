# Intel X25-V 40 GB - SATA 3 Gb/s, 34 nm MLC on 5 of the controller's 10 channels.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
name = intel-x25v-40
aliases = x25v x25-v intel-x25v
description = Intel X25-V 40 GB: SATA 3 Gb/s, PC29AS21BA0 with 5 of 10 channels populated, 34 nm IMFT MLC
source = channelpartner.de: 5 channels populated (5 x 8 GB), 32 MB SDRAM, TRIM
source = Intel X25-V product brief: 170/35 MB/s, 25k/2.5k IOPS [unverified]
source = AnandTech 3965 (X25-M G2): 32 MB DRAM, no user data in DRAM
source = docs/sources.md sections x25v, interfaces, nand-timing, dram, idema

iface = sata             # [src]
sata_gen = 2             # 300 MB/s x 0.92 = 276 MB/s [calc]
cmd_time = 40us          # fitted to 25k IOPS [calc]
cmd_write_time = 40us    # as reads [est]
latency = 20us           # [est]

cell = mlc               # [src]
channels = 5             # [src]
dies = 2                 # 2 x 32 Gbit per 8 GB package [est]
planes = 1               # no multi-plane [est]
page = 4k                # 34 nm IMFT [est]
pages = 128              # [est]
blocks = 8192            # 4 GiB per die: raw 40 GiB [calc]
channel_rate = 35MB/s    # ONFI 1.0 asynchronous, fitted to 170 MB/s reads [calc]
t_read = 50us            # [src AnandTech MLC]
t_prog = 1170us          # fitted to 35 MB/s: 10 dies x 4 KiB [calc]
t_erase = 2ms            # [src AnandTech MLC]
suspend = off            # [est]

capacity = 40020664320   # 40 GB: 78,165,360 sectors (docs/sources.md#idema) [src]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 256k      # user data goes through controller SRAM only [est]
trim = on                # [src]
idle = 1ms               # [est]
slc = off                # [est]

rated_read = 170MB/s     # Intel product brief, unverified [est]
rated_write = 35MB/s     # Intel product brief, unverified [est]
rated_read_iops = 25000  # Intel product brief, unverified [est]
rated_write_iops = 2500  # Intel product brief, unverified [est]
