#!/bin/bash
# A deep perft over a Slurm cluster, one array task per slice of the jobs.
#
#   arbiter perft chess 8 --split 3 > jobs.jsonl       # 8902 jobs, once, anywhere
#   sbatch --array=0-99 scripts/slurm-perft.sh jobs.jsonl
#   # when the array has finished:
#   cat results/*.jsonl | arbiter perft --merge
#
# Task i runs every line whose number is i modulo the array size, so any array size works
# and no job runs twice. A task that fails can be rerun alone (`sbatch --array=17 ...`): its
# file is rewritten, and --merge names any job still missing. Set ARBITER to the binary's
# path if it is not on PATH of the compute nodes, and give every node the same arbiter: the
# jobs replay turns, and a job whose turns reach another position is refused.
#
#SBATCH --job-name=arbiter-perft
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --output=logs/perft-%A_%a.log

set -euo pipefail
jobs_file=${1:?usage: sbatch --array=0-N scripts/slurm-perft.sh JOBS.jsonl}
arbiter=${ARBITER:-arbiter}
task=${SLURM_ARRAY_TASK_ID:?run this with sbatch --array}
tasks=${SLURM_ARRAY_TASK_COUNT:?run this with sbatch --array}
mkdir -p results
awk -v n="$tasks" -v i="$task" '(NR - 1) % n == i' "$jobs_file" \
  | "$arbiter" --threads "${SLURM_CPUS_PER_TASK:-1}" --max-nodes 1000000000000 perft --job \
  > "results/$task.jsonl.part"
mv "results/$task.jsonl.part" "results/$task.jsonl"
