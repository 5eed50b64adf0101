#!/usr/bin/env bash
# malicious-branch-names <root> <pwned-dir>: a repository whose refs are named like options,
# as a push through receive-pack can create them (git itself accepts these refs):
# refs/heads/--output=<pwned-dir>/pwned, refs/heads/-h, refs/heads/--upload-pack=touch${IFS}<pwned-dir>/up,
# refs/tags/--exec=touch${IFS}<pwned-dir>/exec.
source "$(dirname "$0")/lib.sh"
pwned=$2
start_work_tree
printf 'safe\n' > file.txt; git add -A; commit 'only commit'
publish
repo="$root/repo.git"
git --git-dir="$repo" update-ref "refs/heads/--output=$pwned/pwned" refs/heads/main
git --git-dir="$repo" update-ref 'refs/heads/-h' refs/heads/main
# Ref names cannot hold spaces; ${IFS} is kept literally, as in published exploits.
git --git-dir="$repo" update-ref "refs/heads/--upload-pack=touch\${IFS}$pwned/up" refs/heads/main
git --git-dir="$repo" update-ref "refs/tags/--exec=touch\${IFS}$pwned/exec" refs/heads/main
