# SPDX-License-Identifier: MIT
# Draw an SVG bar chart from the TSVs of `make bench` (called by `make bench-chart`):
# per workload and file, jdoc's speed-up over the fastest simdjson and over On Demand.
# usage: sh bench/chart.sh BENCH_OUT_DIR OUT.svg
set -eu
dir=$1
out=$2
dat=$dir/chart.dat

# TSV columns: workload file impl metric median min max unit ratio, where ratio =
# this impl's time / the fastest simdjson's on that file. Per (workload, file):
# best jdoc ratio r, best On Demand ratio o; speed-ups 1/r and o/r.
awk -F'\t' '
    FNR == 1 || $9 == "-" || $4 == "ns_per_event" { next }
    {
        k = $1 ":" $2
        if (!(k in seen)) { seen[k] = 1; order[n++] = k; wl[k] = $1; fl[k] = $2 }
        if ($3 ~ /^jdoc/ && (!(k in j) || $9 + 0 < j[k])) j[k] = $9 + 0
        if ($3 ~ /^simdjson_od/ && (!(k in od) || $9 + 0 < od[k])) od[k] = $9 + 0
    }
    END {
        goal["fetch"] = 2; goal["hotloop"] = 1.5; goal["small"] = 1.25
        for (i = 0; i < n; i++) {
            k = order[i]
            if (!(k in j) || j[k] <= 0) continue
            f = fl[k]; sub(/\.(json|ndjson)$/, "", f)
            printf "%s:%s\t%.4f\t%s\t%s\n", wl[k], f, 1 / j[k], (k in od) ? sprintf("%.4f", od[k] / j[k]) : "NaN", \
                (wl[k] in goal) ? goal[wl[k]] : "NaN"
        }
    }' "$dir/fetch.tsv" "$dir/hotloop.tsv" "$dir/small.tsv" "$dir/streams.tsv" > "$dat"

meta() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$dir/meta.tsv" 2>/dev/null | tr -d '"'; }
cpu=$(meta cpu)
date=$(meta date)
kernel=$(meta jdoc_kernel)
sj=$(meta simdjson)
[ -n "$date" ] || date=$(date -u +%Y-%m-%d)

gnuplot <<EOF
set terminal svg size 1100,600 dynamic noenhanced font "sans,11" background rgb "white"
set output "$out"
set datafile separator "\t"
set datafile missing "NaN"
set title "jdoc vs simdjson: speed-up = simdjson time / jdoc time (higher is better; 1 = as fast)\n${cpu:-unknown CPU}, ${date}, jdoc kernel ${kernel:-?}, simdjson ${sj:-?}"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y 2
set yrange [0.25:*]
set ytics ("0.25" 0.25, "0.5" 0.5, "1" 1, "1.25" 1.25, "1.5" 1.5, "2" 2, "4" 4, "8" 8)
set ylabel "speed-up of the best jdoc variant (log scale)"
set xtics rotate by -35 left scale 0 font ",10" nomirror
set grid ytics lc rgb "#dddddd"
set key top right
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#444444" dt 2
set bmargin 10
plot "$dat" using 2:xtic(1) title "vs fastest simdjson" lc rgb "#3b75af", \
     "" using 3 title "vs fastest On Demand" lc rgb "#ef8636", \
     "" using 0:4:(0.45) with xerrorbars pt 0 lw 3 lc rgb "#c0392b" title "goal"
EOF
