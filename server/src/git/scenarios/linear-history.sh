#!/usr/bin/env bash
# linear-history: main has 6 commits (c1 … c6); tag v1.0 (annotated) on c2, tag light on c4;
# feature/x branches from c3 with one commit; c4's message is multi-line unicode; c6's title is
# longer than 100 characters.
source "$(dirname "$0")/lib.sh"
start_work_tree
mkdir -p src docs
printf '# Project\n' > README.md; printf 'one\n' > src/a.txt
git add -A; commit 'c1: initial'
printf 'one\ntwo\n' > src/a.txt; git add -A; commit 'c2: second line'
GIT_COMMITTER_DATE="@$((tick + 1)) +0000" git tag -a v1.0 -m 'Release 1.0

Notes.'
printf 'guide\n' > docs/guide.md; git add -A; commit 'c3: docs'
git branch feature/x
printf '# Project\n\nÜber naïve café\n' > README.md; git add -A; commit "$(printf 'c4: ünïcödé title\n\nBody line 1\n\tindented line\nLast line')"
git tag light
printf 'one\ntwo\nthree\n' > src/a.txt; git add -A; commit 'c5: third line'
commit "c6: $(printf 'word%.0s ' $(seq 1 30))end"
git checkout -q feature/x
printf 'feature\n' > feature.txt; git add -A; commit 'f1: feature work'
git checkout -q main
publish
