# SPDX-License-Identifier: GPL-2.0
# Plots for Documentation/evaluation/simulation.md from one sim-eval run.
# gnuplot -e "dir='RUN_DIR'; img='PNG_DIR'" plots.gp
set terminal pngcairo size 900,520 font ",11"
set datafile separator ","
set key autotitle columnhead
set grid

# Counts of finished flows, for CDFs (before any range is set: stats obeys them).
stats dir.'/oversub_0.1_spray/flows.csv' u ($7>0?$7:1/0) nooutput name "a"
stats dir.'/oversub_0.1_ecmp/flows.csv' u ($7>0?$7:1/0) nooutput name "b"
stats dir.'/oversub_0.3_spray/flows.csv' u ($7>0?$7:1/0) nooutput name "c"
stats dir.'/oversub_0.3_ecmp/flows.csv' u ($7>0?$7:1/0) nooutput name "d"
stats dir.'/oversub_0.1_spray_cc/flows.csv' u ($7>0?$7:1/0) nooutput name "g"
stats dir.'/oversub_0.3_spray_cc/flows.csv' u ($7>0?$7:1/0) nooutput name "h"
stats dir.'/oversub_0.1_ecmp_cc/flows.csv' u ($7>0?$7:1/0) nooutput name "i"
stats dir.'/oversub_0.3_ecmp_cc/flows.csv' u ($7>0?$7:1/0) nooutput name "k"
stats dir.'/closedloop_spray/flows.csv' u ($7>0?$7:1/0) nooutput name "e"
stats dir.'/closedloop_ecmp/flows.csv' u ($7>0?$7:1/0) nooutput name "f"

# Per-flow throughput, FatTree k=16 permutation.
set output img.'/ft16_throughput_cdf.png'
set title "FatTree k=16 permutation: per-flow throughput (1024 flows)"
set xlabel "throughput (Gb/s, outer IP bytes; host link 10 Gb/s)"
set ylabel "fraction of flows"
set key left top
set xrange [0:10]
set yrange [0:1]
plot dir.'/ft16_spray/flows.csv' u 9:(1./1024) smooth cumulative lw 2 t "eqds, even spraying", \
     dir.'/ft16_spray_hash/flows.csv' u 9:(1./1024) smooth cumulative lw 2 t "eqds, spraying via random hash", \
     dir.'/ft16_ecmp/flows.csv' u 9:(1./1024) smooth cumulative lw 2 t "eqds, per-flow ECMP", \
     dir.'/ft16_spray/fluid_per_flow_ecmp.csv' u 3:(1./1024) smooth cumulative lw 2 dt 2 t "ideal max-min fluid, per-flow ECMP"

# Worst switch queues over time, FatTree k=16.
set output img.'/ft16_queues.png'
set title "FatTree k=16 permutation: largest queue of each kind (sampled every 1 ms)"
set xlabel "time (ms)"
set ylabel "packets"
set autoscale
set key right top
plot dir.'/ft16_spray/samples.csv' u ($1/1000):4 w l lw 2 t "spray: fabric", \
     dir.'/ft16_spray/samples.csv' u ($1/1000):3 w l lw 2 t "spray: to host", \
     dir.'/ft16_spray/samples.csv' u ($1/1000):2 w l lw 2 t "spray: host NIC", \
     dir.'/ft16_spray_hash/samples.csv' u ($1/1000):4 w l lw 2 dt 2 t "random-hash spray: fabric", \
     dir.'/ft16_ecmp/samples.csv' u ($1/1000):4 w l lw 2 dt 2 t "per-flow ECMP: fabric"

# Credit in circulation per active tunnel, FatTree k=16.
set output img.'/ft16_credit.png'
set title "FatTree k=16 permutation: credit in circulation per active tunnel"
set xlabel "time (ms)"
set ylabel "windows (150 x 1536 bytes)"
plot dir.'/ft16_spray/samples.csv' u ($1/1000):($7>0 ? $5/$7/230400 : 1/0) w l lw 2 t "mean", \
     dir.'/ft16_spray/samples.csv' u ($1/1000):6 w l lw 2 t "worst tunnel"

# 850:1 incast: every sender's throughput, and the bottleneck queue.
set output img.'/incast850_flows.png'
set title "850:1 incast, 15-packet buffer: throughput of each sender"
set xlabel "sender"
set ylabel "Mb/s"
set autoscale
set yrange [0:*]
plot dir.'/incast850/flows.csv' u 1:($9*1000) w p pt 7 ps 0.4 t "measured after warm-up"

set output img.'/incast850_queue.png'
set title "850:1 incast: bottleneck (to receiver) queue, sampled every 100 us"
set xlabel "time (ms)"
set ylabel "packets"
set yrange [0:16]
plot dir.'/incast850/samples.csv' u ($1/1000):3 w l lw 2 t "max to-host queue", \
     15 w l dt 2 t "buffer"

# Oversubscribed core: FCT CDFs.
set output img.'/oversub_fct_cdf.png'
set title "4:1 oversubscribed leaf-spine, Poisson heavy-tailed flows: FCT"
set xlabel "flow completion time (us)"
set ylabel "fraction of finished flows"
set logscale x
set yrange [0:1]
set key left top
plot dir.'/oversub_0.1_spray/flows.csv' u ($7>0?$7:1/0):(1./a_records) smooth cumulative lw 2 t "load 0.1, spraying", \
     dir.'/oversub_0.1_ecmp/flows.csv' u ($7>0?$7:1/0):(1./b_records) smooth cumulative lw 2 t "load 0.1, per-flow ECMP", \
     dir.'/oversub_0.3_spray/flows.csv' u ($7>0?$7:1/0):(1./c_records) smooth cumulative lw 2 dt 2 t "load 0.3, spraying", \
     dir.'/oversub_0.3_ecmp/flows.csv' u ($7>0?$7:1/0):(1./d_records) smooth cumulative lw 2 dt 2 t "load 0.3, per-flow ECMP"

# Oversubscribed core: pulling alone against the congestion reaction.
set output img.'/oversub_cc_fct_cdf.png'
set title "4:1 leaf-spine, spraying: FCT, receivers pulling alone vs reacting to CE"
plot dir.'/oversub_0.1_spray/flows.csv' u ($7>0?$7:1/0):(1./a_records) smooth cumulative lw 2 lc 1 t "load 0.1, pulling alone", \
     dir.'/oversub_0.1_spray_cc/flows.csv' u ($7>0?$7:1/0):(1./g_records) smooth cumulative lw 2 lc 2 t "load 0.1, with the reaction", \
     dir.'/oversub_0.3_spray/flows.csv' u ($7>0?$7:1/0):(1./c_records) smooth cumulative lw 2 lc 1 dt 2 t "load 0.3, pulling alone", \
     dir.'/oversub_0.3_spray_cc/flows.csv' u ($7>0?$7:1/0):(1./h_records) smooth cumulative lw 2 lc 2 dt 2 t "load 0.3, with the reaction"

set output img.'/oversub_cc_ecmp_fct_cdf.png'
set title "4:1 leaf-spine, per-flow ECMP: FCT, receivers pulling alone vs reacting to CE"
plot dir.'/oversub_0.1_ecmp/flows.csv' u ($7>0?$7:1/0):(1./b_records) smooth cumulative lw 2 lc 1 t "load 0.1, pulling alone", \
     dir.'/oversub_0.1_ecmp_cc/flows.csv' u ($7>0?$7:1/0):(1./i_records) smooth cumulative lw 2 lc 2 t "load 0.1, with the reaction", \
     dir.'/oversub_0.3_ecmp/flows.csv' u ($7>0?$7:1/0):(1./d_records) smooth cumulative lw 2 lc 1 dt 2 t "load 0.3, pulling alone", \
     dir.'/oversub_0.3_ecmp_cc/flows.csv' u ($7>0?$7:1/0):(1./k_records) smooth cumulative lw 2 lc 2 dt 2 t "load 0.3, with the reaction"

unset logscale x
set output img.'/oversub_cc_queue.png'
set title "4:1 leaf-spine, spraying, load 0.3: largest fabric queue (sampled every 1 ms)"
set xlabel "time (ms)"
set ylabel "packets"
set autoscale
set yrange [0:105]
set key right top
plot dir.'/oversub_0.3_spray/samples.csv' u ($1/1000):4 w l lw 2 lc 1 t "pulling alone", \
     dir.'/oversub_0.3_spray_cc/samples.csv' u ($1/1000):4 w l lw 2 lc 2 t "with the reaction", \
     20 w l dt 2 lc 0 t "ECN threshold", 100 w l dt 3 lc 0 t "buffer"

set output img.'/oversub_cc_rate.png'
set title "4:1 leaf-spine: pull rate / link pull rate, receiving hosts (sampled every 1 ms)"
set ylabel "fraction of the ceiling"
set yrange [0:1.05]
plot dir.'/oversub_0.3_spray_cc/samples.csv' u ($1/1000):10 w l lw 2 lc 2 t "Poisson load 0.3: mean", \
     dir.'/oversub_0.3_spray_cc/samples.csv' u ($1/1000):11 w l lw 1 lc 2 dt 2 t "Poisson load 0.3: lowest", \
     dir.'/oversub_perm_cc/samples.csv' u ($1/1000):10 w l lw 2 lc 3 t "greedy permutation: mean", \
     dir.'/oversub_perm_cc_slow/samples.csv' u ($1/1000):10 w l lw 2 lc 4 t "greedy permutation, slow climb: mean"

set output img.'/oversub_perm_throughput_cdf.png'
set title "4:1 leaf-spine, greedy permutation: per-flow throughput"
set xlabel "throughput (Gb/s; fair share of the core about 2.9)"
set ylabel "fraction of flows"
set key left top
set xrange [0:10]
set yrange [0:1]
plot dir.'/oversub_perm/flows.csv' u 9:(1./128) smooth cumulative lw 2 lc 1 t "pulling alone", \
     dir.'/oversub_perm_cc/flows.csv' u 9:(1./128) smooth cumulative lw 2 lc 2 t "with the reaction", \
     dir.'/oversub_perm_cc_slow/flows.csv' u 9:(1./128) smooth cumulative lw 2 lc 4 t "with the reaction, slow climb"
set autoscale
set logscale x
set xlabel "flow completion time (us)"
set ylabel "fraction of finished flows"
set yrange [0:1]
set key left top

# Closed-loop 1 MB transfers: FCT CDFs.
set output img.'/closedloop_fct_cdf.png'
set title "FatTree k=8, closed-loop 1 MB transfers: FCT"
plot dir.'/closedloop_spray/flows.csv' u ($7>0?$7:1/0):(1./e_records) smooth cumulative lw 2 t "spraying", \
     dir.'/closedloop_ecmp/flows.csv' u ($7>0?$7:1/0):(1./f_records) smooth cumulative lw 2 t "per-flow ECMP"
