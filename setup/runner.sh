#!/usr/bin/env bash
# Turn a bare-metal Debian 12 box into a tagbench benchmark runner (docs/runner-setup.md):
#   packages  what a benchmark job needs (setup/{install,server,bench,metrics,compare}.sh) and
#             what a MySQL/MariaDB source build needs (compilers, cmake, bison, -dev libraries)
#   user      a dedicated system user that runs the runner service, owning the install cache
#   runner    register the GitHub Actions runner of this host with the labels of its host
#             class (configs/hosts/<class>.yml labels:) plus one label of its own (--host-label)
#   pull requests (--pull-requests): a runner for pull requests' legs only (pull-request.yml):
#             labels tagbench-pull-request and tagbench-pr-<class> instead of the class's own, so
#             it never takes a release leg and a release host never takes a pull request;
#             registered --ephemeral (one job, then it is gone: re-image the host, or restore its
#             snapshot, before registering it again); and a second user (--pr-user, default
#             tagbench-pr) that builds and runs the pull request: its own home with its install
#             cache and ccache, no read access to the runner's folder (mode 0700) and its
#             .credentials, no write access to the shared install cache (its finished release
#             builds are linked into the user's cache, read-only to it); the runner's user may
#             run commands as it (sudoers drop-in) and no more
#   ephemeral (--ephemeral) register the runner for one job only (config.sh --ephemeral)
#   only the pull requests' user (--pr-user-only): that second user, its home, install cache
#             (the shared cache's release builds linked in), ccache and sudoers drop-in for the
#             runner's user (--user), and nothing else: no packages, runner, tuning or host class.
#             For a host where act runs pull-request.yml (its test, as root: --user root), which
#             then gets TAGBENCH_PR_USER=<name> in its environment (act --env)
#   tuning    (--tune) what doctor --strict checks: performance governor, turbo off, SMT as the
#             host class says (tuning.smt, default off), transparent huge pages madvise,
#             vm.swappiness=1, irqbalance stopped; kept across reboots by a systemd unit. The
#             previous values are saved first and --untune puts them back.
# Every step looks before it acts and says "already" when there is nothing to do, so rerunning
# is safe. --dry-run prints what would be done, and changes nothing (no root needed).
# Usage (as root):
#   setup/runner.sh --host-class medium-server --host-label tagbench-medium-01 \
#     --org acme --runner-group tagbench-benchmarks \
#     --runner-tarball actions-runner-linux-x64-<version>.tar.gz --tune [--dry-run]
#   setup/runner.sh --host-class small-server --host-label tagbench-pr-01 --org acme \
#     --runner-group tagbench-pull-requests --pull-requests [--pr-user tagbench-pr] --tune
#   (--repo acme/tagbench instead of --org registers a repository runner: any workflow of the
#   repository can reach it; docs/github-service.md "Setting up the service in a company")
#   setup/runner.sh --host-class medium-server --untune [--dry-run]
#   setup/runner.sh --pr-user-only --pr-user tagbench-pr --user root --runner-dir DIR --cache-dir DIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
project=$(cd "$here/.." && pwd)
# Root of /sys, /proc and /etc as this script reads and writes them; only tests change it.
sys_root=${TAGBENCH_SYS_ROOT:-}
state_dir="$sys_root/var/lib/tagbench"
state_file="$state_dir/tuning-before.env"
unit_name=tagbench-tuning.service
unit_file="$sys_root/etc/systemd/system/$unit_name"
sysctl_file="$sys_root/etc/sysctl.d/90-tagbench.conf"

host_class='' host_label='' repo='' org='' runner_group='' runner_tarball='' dry_run=0 tune=0 untune=0 tune_now=0
runner_user=tagbench runner_dir=/opt/tagbench-runner cache_dir=/var/cache/tagbench/installs
skip_packages=0 skip_runner=0 ephemeral=0 pull_requests=0 pr_user=tagbench-pr pr_user_only=0

usage() { sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }
say() { printf 'setup/runner.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

while (($#)); do
  case $1 in
    --host-class) host_class=${2:?}; shift 2 ;;
    --host-label) host_label=${2:?}; shift 2 ;;
    --repo) repo=${2:?}; shift 2 ;;
    --org) org=${2:?}; shift 2 ;;
    --runner-group) runner_group=${2:?}; shift 2 ;;
    --runner-tarball) runner_tarball=${2:?}; shift 2 ;;
    --runner-dir) runner_dir=${2:?}; shift 2 ;;
    --user) runner_user=${2:?}; shift 2 ;;
    --cache-dir) cache_dir=${2:?}; shift 2 ;;
    --ephemeral) ephemeral=1; shift ;;
    --pull-requests) pull_requests=1 ephemeral=1; shift ;;
    --pr-user) pr_user=${2:?}; shift 2 ;;
    --pr-user-only) pr_user_only=1; shift ;;
    --skip-packages) skip_packages=1; shift ;;
    --skip-runner) skip_runner=1; shift ;;
    --tune) tune=1; shift ;;
    --untune) untune=1; shift ;;
    --tune-now) tune_now=1; shift ;; # what the systemd unit runs at boot: only the tuning writes
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage 0 ;;
    *) say "unknown argument '$1'"; usage ;;
  esac
done

known_classes() { local f; for f in "$project"/configs/hosts/*.yml; do f=${f##*/}; printf '%s ' "${f%.yml}"; done; }
((pr_user_only)) || [[ -n $host_class ]] || die "--host-class is required (one of: $(known_classes))"
((tune && untune)) && die "--tune and --untune exclude each other"
[[ $runner_user =~ ^[a-z_][a-z0-9_-]{0,30}$ ]] || die "--user '$runner_user' is not a valid user name"
[[ -z $host_label || $host_label =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$ ]] || die "--host-label '$host_label' must be letters, digits, '.', '_' or '-'"
[[ -z $repo || $repo =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] || die "--repo '$repo' must be owner/name"
[[ -z $org || $org =~ ^[A-Za-z0-9][A-Za-z0-9-]{0,38}$ ]] || die "--org '$org' must be an organization name (letters, digits and -)"
[[ -z $runner_group || $runner_group =~ ^[A-Za-z0-9][A-Za-z0-9\ ._-]{0,99}$ ]] || die "--runner-group '$runner_group' must be letters, digits, spaces, '.', '_' or '-'"
[[ -n $repo && -n $org ]] && die "--repo and --org exclude each other: a runner is registered on a repository or on an organization"
[[ $pr_user =~ ^[a-z_][a-z0-9_-]{0,30}$ ]] || die "--pr-user '$pr_user' is not a valid user name"
[[ $pr_user == "$runner_user" ]] && die "--pr-user '$pr_user' is the runner's own user: a pull request's code runs as another one"
[[ -n $runner_group && -z $org ]] && die "--runner-group needs --org: runner groups are an organization's (a repository runner has none)"

# The host class's labels and SMT setting, from the project's own config loader (validated);
# --pr-user-only needs neither.
class_info=$'\tany'
# shellcheck disable=SC2016 # the $ and backquotes belong to the JavaScript
((pr_user_only)) || class_info=$(cd "$project" && node --input-type=module -e '
  const { loadConfig } = await import("./scripts/config/index.js");
  const config = await loadConfig(process.cwd());
  const h = config.hosts[process.argv[1]];
  if (!h) { console.error(`host class '"'"'${process.argv[1]}'"'"' is not in configs/hosts; known: ${Object.keys(config.hosts).sort().join(", ")}`); process.exit(1); }
  console.log(`${h.labels.join(",")}\t${h.tuning?.smt ?? "off"}`);
' "$host_class") || die "cannot read host class '$host_class'"
class_labels=${class_info%%$'\t'*}
smt_wanted=${class_info##*$'\t'}

# --- helpers: every change goes through these, so --dry-run shows it and changes nothing ---
run() {
  if ((dry_run)); then printf 'would run: %s\n' "$*"; else "$@"; fi
}
# write_value FILE VALUE WHAT: write VALUE into a sysfs/procfs FILE unless it already holds it.
write_value() {
  local file=$1 value=$2 what=$3 now
  now=$(current_value "$file")
  if [[ $now == "$value" ]]; then printf 'already: %s = %s (%s)\n' "$what" "$value" "$file"; return 0; fi
  if ((dry_run)); then printf 'would write: %s = %s (now %s) to %s\n' "$what" "$value" "${now:-unreadable}" "$file"; return 0; fi
  printf '%s\n' "$value" > "$file"
  printf 'set: %s = %s (was %s)\n' "$what" "$value" "${now:-unreadable}"
}
# current_value FILE: the file's value; for a "[selected] other" list, the selected word.
current_value() {
  local text
  text=$(cat "$1" 2>/dev/null) || { printf ''; return 0; }
  if [[ $text =~ \[([a-z]+)\] ]]; then printf '%s' "${BASH_REMATCH[1]}"; else printf '%s' "$text"; fi
}
need_root() {
  ((dry_run)) && return 0
  [[ $(id -u) -eq 0 ]] || die "$1 needs root (or use --dry-run to see what it would do)"
}

cpu_dir="$sys_root/sys/devices/system/cpu"
thp_dir="$sys_root/sys/kernel/mm/transparent_hugepage"
swappiness_file="$sys_root/proc/sys/vm/swappiness"
turbo_file() {
  if [[ -e $cpu_dir/intel_pstate/no_turbo ]]; then printf '%s 1' "$cpu_dir/intel_pstate/no_turbo"
  elif [[ -e $cpu_dir/cpufreq/boost ]]; then printf '%s 0' "$cpu_dir/cpufreq/boost"
  fi
}

# --- tuning: the writes (also what the boot unit runs) ---
apply_tuning() {
  local f found=0 turbo
  for f in "$cpu_dir"/cpu[0-9]*/cpufreq/scaling_governor; do
    [[ -e $f ]] || continue
    found=1
    write_value "$f" performance "governor of $(basename "$(dirname "$(dirname "$f")")")"
  done
  ((found)) || say "no cpufreq governor exposed: set the performance profile in the BIOS (doctor reports 'cannot be verified')"
  turbo=$(turbo_file)
  if [[ -n $turbo ]]; then write_value "${turbo% *}" "${turbo##* }" 'turbo off'
  else say "no intel_pstate/no_turbo or cpufreq/boost: disable turbo in the BIOS"; fi
  if [[ $smt_wanted == any ]]; then
    printf 'already: SMT left as it is (host class %s: tuning.smt any)\n' "$host_class"
  elif [[ -e $cpu_dir/smt/control ]]; then
    case $(current_value "$cpu_dir/smt/control") in
      notsupported|notimplemented|forceoff) say "SMT cannot be switched at runtime here ($(current_value "$cpu_dir/smt/control")): set it in the BIOS to $smt_wanted" ;;
      *) write_value "$cpu_dir/smt/control" "$smt_wanted" "SMT (host class $host_class)" ;;
    esac
  else
    say "no /sys/devices/system/cpu/smt/control: set SMT $smt_wanted in the BIOS"
  fi
  [[ -e $thp_dir/enabled ]] && write_value "$thp_dir/enabled" madvise 'transparent huge pages'
  [[ -e $thp_dir/defrag ]] && write_value "$thp_dir/defrag" madvise 'transparent huge pages defrag'
  [[ -e $swappiness_file ]] && write_value "$swappiness_file" 1 'vm.swappiness'
  return 0
}

irqbalance_active() { systemctl is-active --quiet irqbalance 2>/dev/null; }
irqbalance_enabled() { systemctl is-enabled --quiet irqbalance 2>/dev/null; }

tune_host() {
  need_root 'tuning'
  say "tuning for host class $host_class (SMT $smt_wanted)"
  # The values before the first tuning, kept for --untune; never overwritten by a rerun.
  if [[ -e $state_file ]]; then
    printf 'already: previous values saved in %s\n' "$state_file"
  elif ((dry_run)); then
    printf 'would save: current governor, turbo, SMT, THP, swappiness and irqbalance state to %s\n' "$state_file"
  else
    mkdir -p "$state_dir"
    {
      local first_governor=("$cpu_dir"/cpu[0-9]*/cpufreq/scaling_governor)
      printf 'governor=%s\n' "$(current_value "${first_governor[0]}")"
      local turbo; turbo=$(turbo_file)
      [[ -n $turbo ]] && printf 'turbo_file=%s\nturbo=%s\n' "${turbo% *}" "$(current_value "${turbo% *}")"
      printf 'smt=%s\n' "$(current_value "$cpu_dir/smt/control")"
      printf 'thp=%s\nthp_defrag=%s\n' "$(current_value "$thp_dir/enabled")" "$(current_value "$thp_dir/defrag")"
      printf 'swappiness=%s\n' "$(current_value "$swappiness_file")"
      printf 'irqbalance_enabled=%s\n' "$(irqbalance_enabled && echo yes || echo no)"
    } > "$state_file"
    printf 'saved: previous values in %s\n' "$state_file"
  fi
  apply_tuning
  if [[ -e $sysctl_file ]]; then printf 'already: %s\n' "$sysctl_file"
  elif ((dry_run)); then printf 'would write: vm.swappiness = 1 to %s (kept across reboots)\n' "$sysctl_file"
  else printf '# tagbench runner (setup/runner.sh): no paging of a buffer pool during a benchmark\nvm.swappiness = 1\n' > "$sysctl_file"; fi
  if irqbalance_active || irqbalance_enabled; then run systemctl disable --now irqbalance
  else printf 'already: irqbalance not running\n'; fi
  # sysfs values are lost at reboot: a oneshot unit writes them again before the runner starts.
  local unit
  unit="[Unit]
Description=tagbench runner tuning (governor, turbo, SMT, THP; docs/runner-setup.md)
Before=actions.runner.service
[Service]
Type=oneshot
ExecStart=$here/runner.sh --host-class $host_class --tune-now
RemainAfterExit=yes
[Install]
WantedBy=multi-user.target"
  if [[ -e $unit_file && $(cat "$unit_file") == "$unit" ]]; then printf 'already: %s\n' "$unit_file"
  elif ((dry_run)); then printf 'would write: %s (runs --tune-now at boot) and enable it\n' "$unit_file"
  else printf '%s\n' "$unit" > "$unit_file"; run systemctl daemon-reload; run systemctl enable "$unit_name"; fi
}

untune_host() {
  need_root 'untuning'
  [[ -e $state_file ]] || die "no saved values in $state_file: this host was not tuned by setup/runner.sh (nothing to undo)"
  local governor='' turbo_file='' turbo='' smt='' thp='' thp_defrag='' swappiness='' irqbalance_enabled=''
  while IFS='=' read -r k v; do
    case $k in governor|turbo_file|turbo|smt|thp|thp_defrag|swappiness|irqbalance_enabled) printf -v "$k" '%s' "$v" ;; esac
  done < "$state_file"
  local f
  if [[ -n $governor ]]; then
    for f in "$cpu_dir"/cpu[0-9]*/cpufreq/scaling_governor; do [[ -e $f ]] && write_value "$f" "$governor" 'governor (restored)'; done
  fi
  [[ -n $turbo_file && -n $turbo ]] && write_value "$turbo_file" "$turbo" 'turbo (restored)'
  [[ $smt == on || $smt == off ]] && write_value "$cpu_dir/smt/control" "$smt" 'SMT (restored)'
  [[ -n $thp ]] && write_value "$thp_dir/enabled" "$thp" 'transparent huge pages (restored)'
  [[ -n $thp_defrag ]] && write_value "$thp_dir/defrag" "$thp_defrag" 'transparent huge pages defrag (restored)'
  [[ -n $swappiness ]] && write_value "$swappiness_file" "$swappiness" 'vm.swappiness (restored)'
  [[ -e $sysctl_file ]] && run rm -f "$sysctl_file"
  [[ $irqbalance_enabled == yes ]] && run systemctl enable --now irqbalance
  if [[ -e $unit_file ]]; then run systemctl disable "$unit_name"; run rm -f "$unit_file"; fi
  run rm -f "$state_file"
}

# --- packages ---
build_packages=(
  g++ gcc make cmake bison pkg-config ccache git
  libssl-dev libpcre2-dev libfmt-dev zlib1g-dev libzstd-dev liblz4-dev libsnappy-dev libbz2-dev liblzma-dev
  libaio-dev liburing-dev libnuma-dev libncurses-dev libxml2-dev libcurl4-openssl-dev libsystemd-dev
  libpam0g-dev libgnutls28-dev libjemalloc-dev libtirpc-dev rpcsvc-proto
  linux-cpupower
  sudo # a runner of pull requests runs their build as its second user (sudo -n -u, pull-request.yml)
)
install_packages() {
  local area
  for area in install server bench metrics compare linkbench source-build; do
    run bash "$here/$area.sh"
  done
  if ((dry_run)); then
    printf 'would install (only the missing ones): %s\n' "${build_packages[*]}"
  else
    # shellcheck source=setup/lib/ensure-packages.sh
    source "$here/lib/ensure-packages.sh"
    ensure_packages setup/runner.sh "${build_packages[@]}"
  fi
}

# --- user ---
create_user() {
  if id "$runner_user" >/dev/null 2>&1; then printf 'already: user %s exists\n' "$runner_user"
  else run useradd --system --create-home --home-dir "/home/$runner_user" --shell /bin/bash "$runner_user"; fi
  if [[ -d $cache_dir ]]; then printf 'already: install cache %s\n' "$cache_dir"
  else run install -d -o "$runner_user" -g "$runner_user" -m 0755 "$cache_dir"; fi
}

# --- the pull requests' user: builds and runs a pull request, and reads nothing of the runner ---
create_pr_user() {
  if id "$pr_user" >/dev/null 2>&1; then printf 'already: user %s exists\n' "$pr_user"
  else run useradd --system --create-home --home-dir "/home/$pr_user" --shell /bin/bash "$pr_user"; fi
  # The runner's user's home as the system knows it (root's is /root); /home/<user> for one a
  # dry run has not made yet.
  local runner_home
  runner_home=$(getent passwd "$runner_user" | cut -d: -f6) || runner_home=''
  # Its home (private install cache, ccache, job folder) is its own; the runner's folder and
  # home are closed to it; the shared install cache stays the runner user's (read-only to it).
  run chmod 0700 "/home/$pr_user" "${runner_home:-/home/$runner_user}"
  run install -d -o "$runner_user" -g "$runner_user" -m 0700 "$runner_dir"
  run install -d -o "$pr_user" -g "$pr_user" -m 0700 "/home/$pr_user/ccache"
  # One drop-in per user (sudo skips names with a dot): the runner's user may run commands as
  # it (pull-request.yml: the build, the servers, kill -KILL -1), and nothing the other way.
  local rule="$runner_user ALL=($pr_user) NOPASSWD: ALL" drop_in="/etc/sudoers.d/$pr_user"
  if [[ $(cat "$drop_in" 2>/dev/null) == "$rule" ]]; then printf 'already: %s may run commands as %s\n' "$runner_user" "$pr_user"
  else run sh -c "printf '%s\n' '$rule' > '$drop_in' && chmod 0440 '$drop_in' && visudo -cf '$drop_in'"; fi
  link_release_builds
}

# The pull requests' user's install cache (pull-request.yml: <its home>/installs) is its own; the
# release builds it may reuse (a merge base at a release tag) are the shared cache's finished
# release builds, linked in by name and read-only to it: the shared cache is the runner's user's
# and nothing in it is writable by others. Links, not copies: an install's marker records its
# absolute paths (the server it verifies and runs), so a copy elsewhere would still run the
# original. Ad-hoc builds (+ref-: another pull request's head), unfinished installs and
# .git-refs are not linked. The host is re-imaged before each registration, so this runs again.
link_release_builds() {
  local own="/home/$pr_user/installs" entry name
  run install -d -o "$pr_user" -g "$pr_user" -m 0700 "$own"
  [[ -d $cache_dir ]] || return 0
  run chmod -R go-w "$cache_dir"
  for entry in "$cache_dir"/*@*; do
    name=${entry##*/}
    [[ -d $entry && ! -L $entry && -f $entry/.tagbench-install.json && $name != *+ref-* ]] || continue
    if [[ $(readlink "$own/$name" 2>/dev/null) == "$entry" ]]; then printf 'already: %s reuses %s (read-only)\n' "$pr_user" "$entry"
    else run ln -sfn "$entry" "$own/$name"; fi
  done
}

# --- runner ---
runner_labels() {
  # A pull requests' runner: labels no release leg asks for (scripts/workflow/runner-labels.js).
  if ((pull_requests)); then printf 'tagbench-pull-request,tagbench-pr-%s%s' "$host_class" "${host_label:+,$host_label}"; return 0; fi
  local labels=$class_labels
  [[ -n $host_label ]] && labels=${labels:+$labels,}$host_label
  printf '%s' "$labels"
}
register_runner() {
  [[ -n $host_label ]] || die "--host-label is required to register a runner (one label per machine, e.g. tagbench-medium-01)"
  [[ -n $repo || -n $org ]] || die "--org (an organization runner, in a runner group) or --repo owner/name is required to register a runner"
  local url token_api
  if [[ -n $org ]]; then
    url="https://github.com/$org" token_api="orgs/$org/actions/runners/registration-token"
    [[ -n $runner_group ]] || say "no --runner-group: the runner joins the organization's Default group, which every repository of the organization can use; give it a group restricted to this repository (docs/github-service.md)"
  else
    url="https://github.com/$repo" token_api="repos/$repo/actions/runners/registration-token"
    say "a repository runner: every workflow of $repo can reach it, a pull request's included where pull-request workflows may run; an organization runner group restricted to this repository (--org, --runner-group) is safer where the plan allows (docs/github-service.md)"
  fi
  local group_args=()
  [[ -n $runner_group ]] && group_args=(--runnergroup "$runner_group")
  ((ephemeral)) && group_args+=(--ephemeral)
  if [[ -z $class_labels ]]; then
    say "host class $host_class has no runner labels: the workflows reach this runner only when TAGBENCH_HOST_LABELS names it, e.g. {\"$host_class\": [\"$host_label\"]} (docs/github-service.md)"
  fi
  local labels; labels=$(runner_labels)
  if [[ -e $runner_dir/.runner ]]; then
    printf 'already: a runner is registered in %s (to change its labels: config.sh remove, then rerun)\n' "$runner_dir"
    return 0
  fi
  if [[ ! -x $runner_dir/config.sh ]]; then
    [[ -n $runner_tarball ]] || die "$runner_dir has no runner: pass --runner-tarball <actions-runner-linux-x64-*.tar.gz> (download it and check its sha256 against the runner release page first)"
    run install -d -o "$runner_user" -g "$runner_user" "$runner_dir"
    run tar -xzf "$runner_tarball" -C "$runner_dir"
    run chown -R "$runner_user:$runner_user" "$runner_dir"
  fi
  if ((dry_run)); then
    printf 'would run (as %s, RUNNER_TOKEN from the environment): %s/config.sh --unattended --url %s%s%s --name %s --labels %s --work _work --replace\n' \
      "$runner_user" "$runner_dir" "$url" "${runner_group:+ --runnergroup $runner_group}" "$( ((ephemeral)) && printf ' --ephemeral')" "$host_label" "$labels"
  else
    [[ -n ${RUNNER_TOKEN:-} ]] || die "RUNNER_TOKEN is not set: a registration token (gh api -X POST $token_api --jq .token), valid one hour"
    (cd "$runner_dir" && runuser -u "$runner_user" -- ./config.sh --unattended --url "$url" "${group_args[@]}" \
      --token "$RUNNER_TOKEN" --name "$host_label" --labels "$labels" --work _work --replace)
  fi
  # The job's environment: the host class the workflow passes to doctor --strict, the cache.
  run sh -c "printf 'TAGBENCH_HOST_CLASS=%s\nTAGBENCH_CACHE=%s\n' '$host_class' '$cache_dir' >> '$runner_dir/.env'"
  # pull-request.yml builds and runs the pull request as this user, and refuses without it.
  ((pull_requests)) && run sh -c "printf 'TAGBENCH_PR_USER=%s\n' '$pr_user' >> '$runner_dir/.env'"
  (cd "$runner_dir" 2>/dev/null || cd /; run "$runner_dir/svc.sh" install "$runner_user")
  (cd "$runner_dir" 2>/dev/null || cd /; run "$runner_dir/svc.sh" start)
}

if ((tune_now)); then
  apply_tuning
  exit 0
fi
((dry_run)) && say "dry run: nothing is changed"
if ((pr_user_only)); then
  need_root "setting up the pull requests' user"
  command -v sudo >/dev/null || ((dry_run)) || die "sudo is not installed: pull-request.yml runs the pull request's build as $pr_user with sudo -n -u"
  create_pr_user
  printf 'TAGBENCH_PR_USER=%s: give it to the environment of the runner that runs pull-request.yml (act: --env TAGBENCH_PR_USER=%s)\n' "$pr_user" "$pr_user"
  exit 0
fi
say "host class $host_class: runner labels self-hosted,$(runner_labels) (GitHub adds self-hosted, Linux, X64 itself); SMT wanted: $smt_wanted"
if ((untune)); then
  untune_host
  exit 0
fi
need_root 'setting up a runner'
if ((skip_packages)); then say 'packages skipped (--skip-packages)'; else install_packages; fi
create_user
((pull_requests)) && create_pr_user
if ((skip_runner)); then say 'runner registration skipped (--skip-runner)'; else register_runner; fi
if ((tune)); then tune_host; else say 'host tuning not changed (add --tune)'; fi
if ((dry_run)); then
  printf 'would run: node %s/scripts/cli.js doctor --strict --host-class %s\n' "$project" "$host_class"
else
  node "$project/scripts/cli.js" doctor --strict --host-class "$host_class" || say "doctor --strict found a required check failing: benchmarks on this host are blocked until it is fixed"
fi
