#!/usr/bin/env bash
# Runs the sharded report on a cluster: the Indexed Job, a wait for all of it, the merge Job.
#   docker build -f examples/kubernetes/Dockerfile -t playtest:latest .   # and push it where the cluster pulls
#   ./examples/kubernetes/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kubectl apply -f "$here/pvc.yaml"
kubectl delete job playtest-shards playtest-merge --ignore-not-found
kubectl apply -f "$here/shards-job.yaml"
kubectl wait --for=condition=complete --timeout=6h job/playtest-shards
kubectl apply -f "$here/merge-job.yaml"
kubectl wait --for=condition=complete --timeout=30m job/playtest-merge
kubectl logs job/playtest-merge
