#!/usr/bin/env bash
# conflicting-branches: from a common base, main and feature both change line 2 of f.txt and
# both add "sp ace.txt" with different content (two conflicts); clean only adds clean.txt.
source "$(dirname "$0")/lib.sh"
start_work_tree
printf 'a\nb\nc\n' > f.txt; printf 'x\n' > other.txt
git add -A; commit 'base'
git checkout -q -b feature
printf 'a\nB-feature\nc\n' > f.txt; printf 'feature\n' > 'sp ace.txt'
git add -A; commit 'feature change'
git checkout -q -b clean main
printf 'clean\n' > clean.txt
git add -A; commit 'clean change'
git checkout -q main
printf 'a\nB-main\nc\n' > f.txt; printf 'y\n' > other.txt; printf 'main\n' > 'sp ace.txt'
git add -A; commit 'main change'
publish
