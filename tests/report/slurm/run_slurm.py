#!/usr/bin/env python3
"""fg-report's shards on a real Slurm cluster: one node, on localhost.

Usage: run_slurm.py BIN_DIR WORK_DIR

Starts a private cluster in a fresh folder under WORK_DIR (its own munge key
and munged socket, slurm.conf, state, spool and logs; ports picked free),
waits for the node to be idle, and runs the Slurm recipe of man/fg-report.1
(CLUSTERS), read from the page, with this test's inputs in place of its
/shared/profiles: `sbatch --array=1-3` running `fg-report --shard
$SLURM_ARRAY_TASK_ID/3`, then a job depending on the array (afterok) running
`fg-report merge`. Checks that the merged site equals an unsharded local run
and the parts merged in a local loop, byte for byte, with the same exit
status. The daemons are stopped whatever happens; on a failure their logs
and the jobs' output are printed.

Slurm missing is a failure, not a skip: scripts/install-deps.sh installs
slurm-wlm and munge.
"""

import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(os.path.dirname(HERE), "inputs")
MAN_PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "man", "fg-report.1")
MIXED = os.path.join(INPUTS, "mixed")
# The corpus of run_report.py's shards case: every format, a truncated input
# and a baseline pair whose gate trips, so parts carry errors and verdicts.
GOOD = ["basic.folded", "heap.pb.gz", "jeprof-m1.dot", "lock.jfr.gz", "small.heap", "total_host.json",
        "xss.folded"]
ARGS = (["--baseline", os.path.join(INPUTS, "base", "svc.folded"), "--fail-if", "total>+5%"] +
        [os.path.join(MIXED, f) for f in GOOD + ["truncated.folded.gz"]] +
        [os.path.join(INPUTS, "new", "svc.folded")])
TIMEOUT = 300  # seconds for the cluster to come up, and again for the jobs
PROGRAMS = ["munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol", "scancel"]
DONE_STATES = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED",
               "BOOT_FAIL", "DEADLINE"}


class Failure(Exception):
    pass


def free_ports(n):
    """n distinct ports free now (all bound at once, then let go)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def node_line():
    """The node as slurmd sees it (CPUs, sockets, cores, threads, memory),
    so the node is not drained for claiming more than it has."""
    out = subprocess.run(["slurmd", "-C"], capture_output=True, text=True, timeout=60).stdout
    first = out.splitlines()[0] if out else ""
    if not first.startswith("NodeName="):
        raise Failure(f"slurmd -C printed no node line: {out!r}")
    return re.sub(r"^NodeName=\S+", "NodeName=localhost NodeAddr=127.0.0.1", first)


def write_config(d, user):
    for sub in ("state", "spool", "log", "munge"):
        os.makedirs(os.path.join(d, sub))
    key = os.path.join(d, "munge", "munge.key")
    with open(key, "wb") as f:
        f.write(os.urandom(1024))
    os.chmod(key, 0o400)
    os.chmod(os.path.join(d, "munge"), 0o711)  # clients reach the socket
    open(os.path.join(d, "plugstack.conf"), "w").close()  # not /etc/slurm's
    ctld_port, slurmd_port = free_ports(2)
    conf = f"""ClusterName=fgtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser={user}
SlurmdUser={user}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/munge/munge.socket
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
SlurmdDebug=verbose
PlugStackConfig={d}/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
{node_line()} State=UNKNOWN
PartitionName=fg Nodes=localhost Default=YES MaxTime=INFINITE State=UP
"""
    path = os.path.join(d, "slurm.conf")
    with open(path, "w") as f:
        f.write(conf)
    return path


class Cluster:
    """munged, slurmctld and slurmd in the foreground, each in its own
    process group so that stop() ends them and what they started."""

    def __init__(self, d, user):
        self.d = d
        self.conf = write_config(d, user)
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        self.procs = []

    def start(self, argv, name):
        log = open(os.path.join(self.d, "log", name + ".out"), "w")
        self.procs.append((name, subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                                  start_new_session=True)))

    def up(self):
        m = os.path.join(self.d, "munge")
        self.start(["munged", "--foreground", "--force", f"--key-file={m}/munge.key", f"--socket={m}/munge.socket",
                    f"--pid-file={m}/munged.pid", f"--seed-file={m}/munged.seed",
                    f"--log-file={self.d}/log/munged.log"], "munged")
        self.wait_for(lambda: os.path.exists(f"{m}/munge.socket"), "munged's socket")
        self.start(["slurmctld", "-D", "-i", "-f", self.conf], "slurmctld")
        self.start(["slurmd", "-D", "-N", "localhost", "-f", self.conf], "slurmd")
        self.wait_for(lambda: self.cmd(["sinfo", "-h", "-n", "localhost", "-o", "%t"], check=False) == "idle",
                      "the node to be idle (sinfo)")

    def cmd(self, argv, check=True):
        r = subprocess.run(argv, capture_output=True, text=True, env=self.env, timeout=60)
        if check and r.returncode != 0:
            raise Failure(f"{' '.join(argv)}: exit {r.returncode}: {r.stderr.strip()}")
        return r.stdout.strip()

    def wait_for(self, ready, what):
        deadline = time.monotonic() + TIMEOUT
        while not ready():
            for name, p in self.procs:
                if p.poll() is not None:
                    raise Failure(f"{name} exited with status {p.returncode} while waiting for {what}")
            if time.monotonic() > deadline:
                raise Failure(f"timed out after {TIMEOUT} s waiting for {what}")
            time.sleep(1)

    def job_state(self, job):
        """(state, exit status) of every task of a job, by scontrol."""
        out = self.cmd(["scontrol", "-o", "show", "job", job], check=False)
        states = re.findall(r"\bJobState=(\S+)", out)
        codes = [int(c) for c in re.findall(r"\bExitCode=(\d+):\d+", out)]
        return list(zip(states, codes))

    def stop(self):
        if any(p.poll() is None for name, p in self.procs if name == "slurmctld"):
            self.cmd(["scancel", "--full", "--user", pwd.getpwuid(os.getuid()).pw_name], check=False)
        for _, p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for _, p in reversed(self.procs):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()

    def print_logs(self):
        for root, _, files in os.walk(self.d):
            for f in sorted(files):
                if f.endswith((".log", ".out")):
                    with open(os.path.join(root, f), errors="replace") as text:
                        print(f"----- {os.path.join(root, f)}\n{text.read()[-20000:]}")


def recipe():
    """The Slurm commands of man/fg-report.1 (CLUSTERS, Slurm), as shell."""
    with open(MAN_PAGE, encoding="utf-8") as f:
        roff = f.read()
    m = re.search(r"^\.SS Slurm\n.*?^\.EX\n(.*?)^\.EE\n", roff, re.S | re.M)
    if not m or "/shared/profiles" not in m.group(1):
        raise Failure(f"{MAN_PAGE}: no Slurm recipe over /shared/profiles under CLUSTERS")
    return m.group(1).replace("\\-", "-").replace("\\e", "\\")


def bare(arg):
    """arg for a shell, quoted with backslashes: the recipe's --wrap command
    is already in single quotes."""
    return re.sub(r"([^\w/.,=+:%-])", r"\\\1", arg)


def run_jobs(cluster, site):
    """Runs the man page's recipe in site, over this test's inputs, with
    fg-report on PATH; waits for the merge job. Returns the array's tasks'
    and the merge job's (state, exit status) and the merged site."""
    os.makedirs(site)
    script = recipe().replace("/shared/profiles", " ".join(bare(a) for a in ARGS))
    r = subprocess.run(["sh", "-c", script + 'echo "array $array"\n'], cwd=site, env=cluster.env,
                       capture_output=True, text=True, timeout=120)
    array = re.findall(r"^array (\d+)$", r.stdout, re.M)
    merge = re.findall(r"^Submitted batch job (\d+)$", r.stdout, re.M)
    if r.returncode != 0 or not array or not merge:
        raise Failure(f"the recipe failed (exit {r.returncode}):\n{script}\n{r.stdout}{r.stderr}")
    array, merge = array[0], merge[0]
    deadline = time.monotonic() + TIMEOUT
    while True:
        states = cluster.job_state(merge)
        if states and all(s in DONE_STATES for s, _ in states):
            break
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {TIMEOUT} s waiting for the jobs: array {cluster.job_state(array)}, "
                          f"merge {states}")
        time.sleep(1)
    shards = cluster.job_state(array)
    print(f"array job {array}: {shards}; merge job {merge}: {states}")
    return shards, states[0], os.path.join(site, "report")


def site_files(site):
    found = []
    for root, _, files in os.walk(site):
        found += [os.path.relpath(os.path.join(root, f), site) for f in files]
    return sorted(found)


def same_site(a, b, what, failures):
    if site_files(a) != site_files(b):
        failures.append(f"{what}: other files: {site_files(a)} vs {site_files(b)}")
        return
    for f in site_files(a):
        with open(os.path.join(a, f), "rb") as x, open(os.path.join(b, f), "rb") as y:
            if x.read() != y.read():
                failures.append(f"{what}: {f} differs")


def local_sites(work):
    """The unsharded site and the parts merged in a loop, on this machine."""
    fg = os.path.join(BIN, "fg-report")
    whole, looped = os.path.join(work, "whole"), os.path.join(work, "looped")
    status = subprocess.run([fg] + ARGS + ["-o", whole], capture_output=True, timeout=300).returncode
    parts = []
    for i in (1, 2, 3):
        parts.append(os.path.join(work, f"loop-part{i}"))
        subprocess.run([fg, "--shard", f"{i}/3"] + ARGS + ["-o", parts[-1]], capture_output=True, timeout=300)
    loop_status = subprocess.run([fg, "merge"] + parts + ["-o", looped], capture_output=True, timeout=300).returncode
    return whole, status, looped, loop_status


def main(work):
    missing = [p for p in PROGRAMS if not shutil.which(p, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")]
    if missing:
        print(f"FAIL: Slurm is not installed (missing {', '.join(missing)}); scripts/install-deps.sh installs "
              "Debian's slurm-wlm and munge")
        return 1
    os.environ["PATH"] = BIN + ":" + os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    os.makedirs(work, exist_ok=True)
    d = tempfile.mkdtemp(prefix="cluster-", dir=work)
    os.chmod(d, 0o755)  # munged checks the folders above its key and socket
    user = pwd.getpwuid(os.getuid()).pw_name
    failures = []
    cluster = None
    try:
        cluster = Cluster(d, user)
        cluster.up()
        shards, (merge_state, merge_status), report = run_jobs(cluster, os.path.join(d, "site"))
        whole, status, looped, loop_status = local_sites(d)
        if [s for s, _ in shards] != ["COMPLETED"] * 3:
            failures.append(f"the array's tasks did not all complete: {shards}")
        if merge_status != status or loop_status != status:
            failures.append(f"exit status: slurm merge {merge_status} ({merge_state}), loop {loop_status}, "
                            f"unsharded {status}")
        if status != 1:
            failures.append(f"unsharded run: exit {status}, expected 1 (the truncated input)")
        if not os.path.isdir(report):
            failures.append("the merge job made no site")
        else:
            same_site(report, whole, "slurm merge vs unsharded", failures)
            same_site(report, looped, "slurm merge vs loop merge", failures)
    except (Failure, subprocess.TimeoutExpired, OSError) as e:
        failures.append(str(e))
    finally:
        if cluster:
            cluster.stop()
    for f in failures:
        print("FAIL: " + f)
    if failures:
        if cluster:
            cluster.print_logs()
        return 1
    shutil.rmtree(d, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    BIN = os.path.abspath(sys.argv[1])
    sys.exit(main(os.path.abspath(sys.argv[2])))
