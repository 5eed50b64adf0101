# Shared helpers for scenario scripts. Sourced, not run.
# Every scenario builds a work tree under $root/work and publishes it to the bare $root/repo.git.
set -euo pipefail
root=$1
work="$root/work"
export GIT_AUTHOR_NAME='Ada Lovelace' GIT_AUTHOR_EMAIL='ada@example.com'
export GIT_COMMITTER_NAME='Grace Hopper' GIT_COMMITTER_EMAIL='grace@example.com'
tick=1700000000

# commit <message>: commits everything staged, one minute after the previous commit.
commit() {
  tick=$((tick + 60))
  GIT_AUTHOR_DATE="@$tick +0000" GIT_COMMITTER_DATE="@$tick +0000" git commit -q --allow-empty -m "$1"
}

start_work_tree() {
  git init -q -b main "$work"
  cd "$work"
}

publish() {
  git init -q --bare "$root/repo.git"
  git push -q "$root/repo.git" '+refs/heads/*:refs/heads/*' '+refs/tags/*:refs/tags/*'
  git --git-dir="$root/repo.git" symbolic-ref HEAD refs/heads/main
}
