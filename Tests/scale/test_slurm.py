#!/usr/bin/env python3
"""The README's batch recipes run as written (issue #38): its Slurm array on a real one-node
Slurm cluster started here (munged, slurmctld, slurmd; proctrack/linuxproc, no cgroups), and
its GNU parallel line, over a corpus of several hundred real photos and composed scenes.

Checks: the union of the shards' JSON Lines is exactly one single-process run's; a task
requeued mid-run (scontrol requeue, as a preempted node's) and a task cancelled mid-run
(scancel) and submitted again resume from their --resume files without duplicates or gaps.
Prints the wall times of one task with two CPUs and two tasks with one each, beside one
process. Usage: test_slurm.py KAMERA CORPUS_DIR README.md
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

KAMERA, CORPUS, README = (os.path.abspath(path) for path in sys.argv[1:4])
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def readme_block(marker):
    """The fenced code block of the README that contains `marker`, verbatim."""
    block = None
    for line in open(README, encoding="utf-8"):
        if line.startswith("```"):
            if block is not None and marker in "".join(block):
                return "".join(block)
            block = [] if block is None else None
        elif block is not None:
            block.append(line)
    sys.exit(f"README has no code block with {marker!r}")


class Cluster:
    """munged, slurmctld and slurmd on this machine, with their own configuration and state."""

    def __init__(self, root):
        self.root = root
        self.processes = []
        self.started_munged = False
        host = socket.gethostname().split(".")[0]
        cpus = os.cpu_count() or 2
        conf = os.path.join(root, "slurm.conf")
        with open(conf, "w") as f:
            f.write(f"""ClusterName=kamera
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/slurmctld.log
SlurmdLogFile={root}/slurmd.log
ReturnToService=2
MpiDefault=none
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=4096 State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")
        for folder in ("state", "spool"):
            os.makedirs(os.path.join(root, folder), exist_ok=True)
        self.env = dict(os.environ, SLURM_CONF=conf, PATH=os.path.dirname(os.path.abspath(KAMERA)) + ":" + os.environ["PATH"])
        if subprocess.run(["sh", "-c", "munge -n | unmunge"], capture_output=True).returncode != 0:
            os.makedirs("/run/munge", exist_ok=True)
            shutil.chown("/run/munge", "munge", "munge")
            # --force: as root, and with a log folder Debian's package leaves to root.
            self.munged = subprocess.run(["munged", "--force"], capture_output=True, text=True)
            check(self.munged.returncode == 0, f"munged starts ({self.munged.stderr.strip()[:200]})")
            self.started_munged = self.munged.returncode == 0
        for daemon in (["slurmctld", "-D", "-f", conf], ["slurmd", "-D", "-f", conf]):
            log = open(os.path.join(root, daemon[0] + ".out"), "w")
            self.processes.append(subprocess.Popen(daemon, stdout=log, stderr=subprocess.STDOUT, env=self.env))
        deadline = time.time() + 60
        while time.time() < deadline:
            state = self.run(["sinfo", "-h", "-o", "%t"]).stdout.strip()
            if state == "idle":
                break
            time.sleep(0.5)
        check(state == "idle", f"the node is idle within 60 s (sinfo: {state!r})")

    def run(self, command, cwd=None, extra=None):
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=dict(self.env, **(extra or {})))

    def submit(self, work, *options, extra=None):
        """sbatch the README's script with `options`; returns the array job's id."""
        result = self.run(["sbatch", "--parsable", *options, "kamera.sbatch"], cwd=work, extra=extra)
        check(result.returncode == 0, f"sbatch {' '.join(options)} ({result.stderr.strip()[:200]})")
        return result.stdout.strip().split(";")[0]

    def wait(self, job, limit=300):
        deadline = time.time() + limit
        while time.time() < deadline and self.run(["squeue", "-h", "-j", job]).stdout.strip():
            time.sleep(0.3)
        check(time.time() < deadline, f"job {job} finished within {limit} s")

    def stop(self):
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        if self.started_munged:
            subprocess.run(["pkill", "-x", "munged"], capture_output=True)


def shard_lines(work):
    lines = []
    for name in sorted(os.listdir(os.path.join(work, "results"))):
        if name.endswith(".jsonl"):
            lines += open(os.path.join(work, "results", name), encoding="utf-8").read().splitlines()
    return lines


def fresh(work):
    shutil.rmtree(os.path.join(work, "results"), ignore_errors=True)
    for name in os.listdir(work):
        if name.startswith("slurm-"):
            os.remove(os.path.join(work, name))


def same_as_one_run(lines, reference, what):
    inputs = [re.search(r'"input":"([^"]*)"', line).group(1) for line in lines]
    check(len(inputs) == len(set(inputs)), f"{what}: no input twice ({len(inputs) - len(set(inputs))} duplicates)")
    check(sorted(lines) == sorted(reference), f"{what}: the shards' union is one run's result ({len(lines)} of {len(reference)} lines)")


def wait_for_lines(path, count, limit=60):
    deadline = time.time() + limit
    while time.time() < deadline:
        if os.path.exists(path) and sum(1 for _ in open(path, encoding="utf-8")) >= count:
            return True
        time.sleep(0.05)
    return False


def main():
    root = tempfile.mkdtemp(prefix="kamera-slurm-")
    work = os.path.join(root, "work")
    os.makedirs(work)
    os.symlink(os.path.abspath(CORPUS), os.path.join(work, "photos"))
    with open(os.path.join(work, "kamera.sbatch"), "w") as f:
        f.write(readme_block("#SBATCH --array"))
    began = time.time()
    one = subprocess.run([KAMERA, "detect", "--barcodes", "--jobs", "2", "--format", "jsonl", "photos"], cwd=work, capture_output=True, text=True)
    single_seconds = time.time() - began
    reference = one.stdout.splitlines()
    check(one.returncode == 0 and len(reference) >= 300, f"one process analysed the corpus ({len(reference)} files, {single_seconds:.1f} s)")
    cluster = Cluster(root)
    try:
        # As written: 16 shards, two CPUs each.
        began = time.time()
        cluster.wait(cluster.submit(work))
        written_seconds = time.time() - began
        same_as_one_run(shard_lines(work), reference, "the README's array (16 tasks)")

        walls = {}
        for shards, cpus in ((1, 2), (2, 1)):
            fresh(work)
            began = time.time()
            cluster.wait(cluster.submit(work, f"--array=0-{shards - 1}", f"--cpus-per-task={cpus}", extra={"SHARDS": str(shards)}))
            walls[shards] = time.time() - began
            same_as_one_run(shard_lines(work), reference, f"{shards} task(s) × {cpus} CPU")

        # Interrupted: task 0 requeued mid-run (a preempted node), task 1 cancelled mid-run and
        # submitted again alone; both resume from their files.
        fresh(work)
        job = cluster.submit(work, "--array=0-3", "--cpus-per-task=1", extra={"SHARDS": "4"})
        results = os.path.join(work, "results")
        check(wait_for_lines(os.path.join(results, "shard-1.jsonl"), 5), "task 1 wrote some results")
        cancelled = cluster.run(["scancel", f"{job}_1"])
        check(cancelled.returncode == 0, "scancel of task 1")
        check(wait_for_lines(os.path.join(results, "shard-0.jsonl"), 5), "task 0 wrote some results")
        requeued = cluster.run(["scontrol", "requeue", f"{job}_0"])
        check(requeued.returncode == 0, f"scontrol requeue {job}_0 ({requeued.stderr.strip()[:200]})")
        # A requeued job is held back before it may start again (its begin time is set ahead);
        # the test brings the begin time back once it is pending.
        for _ in range(60):
            reason = cluster.run(["squeue", "-h", "-j", f"{job}_0", "-o", "%T %r"]).stdout.strip()
            if reason.startswith("PENDING") and "BeginTime" in reason:
                cluster.run(["scontrol", "update", f"JobId={job}_0", "StartTime=now"])
            elif reason.startswith("RUNNING") or not reason:
                break
            time.sleep(0.5)
        cluster.wait(job)
        cut = sum(1 for _ in open(os.path.join(results, "shard-1.jsonl"), encoding="utf-8"))
        check(cut < len(reference) // 4, f"task 1 was cut off ({cut} lines)")
        cluster.wait(cluster.submit(work, "--array=1", "--cpus-per-task=1", extra={"SHARDS": "4"}))
        same_as_one_run(shard_lines(work), reference, "after a requeue and a cancel + resubmit")
        logs = {name: open(os.path.join(work, name)).read() for name in os.listdir(work) if name.startswith("slurm-")}
        check(any(re.search(r"[1-9]\d* already in results/shard-0\.jsonl", text) for text in logs.values()),
              "the requeued task said how many files it already had")
        check(any(re.search(r"[1-9]\d* already in results/shard-1\.jsonl", text) for text in logs.values()),
              "the resubmitted task said how many files it already had")
    finally:
        cluster.stop()

    # GNU parallel on one host, the README's line.
    fresh(work)
    line = next(l for l in readme_block("parallel --jobs").splitlines() if l.startswith("parallel "))
    began = time.time()
    ran = subprocess.run(["bash", "-c", line], cwd=work, capture_output=True, text=True, stdin=subprocess.DEVNULL, env=cluster.env)
    parallel_seconds = time.time() - began
    check(ran.returncode == 0, f"the README's parallel line runs ({ran.stderr.strip()[-200:]})")
    same_as_one_run(shard_lines(work), reference, "GNU parallel")

    print(f"corpus: {len(reference)} files, {os.cpu_count()} cores")
    print(f"one process (--jobs 2)         {single_seconds:6.1f} s")
    print(f"Slurm, 1 task x 2 CPUs         {walls.get(1, 0):6.1f} s")
    print(f"Slurm, 2 tasks x 1 CPU         {walls.get(2, 0):6.1f} s")
    print(f"Slurm, README's 16 tasks       {written_seconds:6.1f} s  (one at a time on 2 cores: scheduling dominates)")
    print(f"GNU parallel, README's line    {parallel_seconds:6.1f} s")
    shutil.rmtree(root, ignore_errors=True)
    print(f"{len(failures)} failed" if failures else "all passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
