"""python-gitlab (Debian's python3-gitlab) against a running Tributary.

Run by python-gitlab.test.ts with TRIBUTARY_URL, TRIBUTARY_TOKEN (root's) and
TRIBUTARY_SUFFIX (makes names unique). Every call goes through python-gitlab's
own objects, so a Content-Type, a status code or a field name it does not expect
fails here. Prints one JSON object of what it saw; the test asserts on it.
"""
import json
import os
import sys

import gitlab

url = os.environ["TRIBUTARY_URL"]
token = os.environ["TRIBUTARY_TOKEN"]
suffix = os.environ["TRIBUTARY_SUFFIX"]
seen = {"python_gitlab": gitlab.__version__}

gl = gitlab.Gitlab(url, private_token=token)
gl.auth()
seen["user"] = gl.user.username
seen["version"] = gl.version()[0]

# users
alice = gl.users.create({"username": f"alice-{suffix}", "name": "Alice", "email": f"alice-{suffix}@example.com", "password": "Tr1-python-gitlab-pass"})
seen["user_found"] = [u.username for u in gl.users.list(username=alice.username)]
seen["user_get"] = gl.users.get(alice.id).name
alice.block()
seen["blocked_state"] = gl.users.get(alice.id).state
alice.unblock()
seen["unblocked_state"] = gl.users.get(alice.id).state

# groups
group = gl.groups.create({"name": f"Py {suffix}", "path": f"py-{suffix}"})
sub = gl.groups.create({"name": "Sub", "path": "sub", "parent_id": group.id})
seen["group_get"] = gl.groups.get(group.full_path).full_path
seen["subgroups"] = [g.full_path for g in group.subgroups.list()]
seen["descendants"] = [g.full_path for g in group.descendant_groups.list()]
group.description = "changed by python-gitlab"
group.save()
seen["group_description"] = gl.groups.get(group.id).description

# projects
project = gl.projects.create({"name": "Py project", "path": "py-project", "namespace_id": group.id, "initialize_with_readme": True})
seen["project_path"] = project.path_with_namespace
project.description = "edited"
project.save()
project = gl.projects.get(project.path_with_namespace)
seen["project_description"] = project.description
seen["group_projects"] = [p.path for p in group.projects.list()]
seen["member_projects"] = [p.path_with_namespace for p in gl.projects.list(membership=True, search="py-project")]
project.members.create({"user_id": alice.id, "access_level": gitlab.const.DEVELOPER_ACCESS})
seen["members"] = sorted(m.username for m in project.members.list())

# repository: tree, files, commits, compare
seen["tree"] = [item["path"] for item in project.repository_tree()]
readme = project.files.get(file_path="README.md", ref="main")
seen["readme_has_name"] = "Py project" in readme.decode().decode()
project.files.create({"file_path": "src/hello.txt", "branch": "main", "content": "hello\n", "commit_message": "Add hello"})
commits = project.commits.list()
seen["commit_titles"] = [c.title for c in commits]
seen["commit_get"] = project.commits.get(commits[0].id).title
seen["commit_diff_paths"] = [d["new_path"] for d in project.commits.get(commits[0].id).diff()]
seen["compare_commits"] = len(project.repository_compare(commits[-1].id, commits[0].id)["commits"])

# repository reads: blame, blobs, archives, contributors, the refs containing a commit
seen["blame_lines"] = [line for run in project.files.blame("src/hello.txt", "main") for line in run["lines"]]
blob_sha = [item["id"] for item in project.repository_tree(path="src")][0]
seen["blob_raw"] = project.repository_raw_blob(blob_sha).decode()
seen["archive_magic"] = project.repository_archive(sha="main", format="zip")[:2].decode()
seen["contributors"] = sorted(c["commits"] for c in project.repository_contributors())
seen["commit_refs"] = [(r["type"], r["name"]) for r in project.commits.get(commits[0].id).refs()]

# branches
project.branches.create({"branch": "feature", "ref": "main"})
seen["branches"] = sorted(b.name for b in project.branches.list())
seen["branch_get"] = project.branches.get("feature").name
project.files.update("src/hello.txt", {"branch": "feature", "content": "hello, world\n", "commit_message": "Greet the world"})
project.branches.create({"branch": "doomed", "ref": "main"})
project.branches.delete("doomed")
seen["branches_after_delete"] = sorted(b.name for b in project.branches.list())

# tags
tag = project.tags.create({"tag_name": "v1.0", "ref": "main", "message": "First release"})
seen["tag_created"] = [tag.name, tag.message]
seen["tags"] = [t.name for t in project.tags.list()]
project.tags.create({"tag_name": "v0.1", "ref": "main"})
project.tags.delete("v0.1")
seen["tags_after_delete"] = [t.name for t in project.tags.list()]

# merge requests and notes
mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Greet the world"})
seen["mr_iid"] = mr.iid
seen["mr_list"] = [m.title for m in project.mergerequests.list(state="opened")]
mr.description = "Please review"
mr.save()
mr = project.mergerequests.get(mr.iid)
seen["mr_description"] = mr.description
seen["mr_commits"] = [c.title for c in mr.commits()]
seen["mr_changes"] = [c["new_path"] for c in mr.changes()["changes"]]
note = mr.notes.create({"body": "Looks good"})
seen["note_body"] = note.body
note.body = "Looks very good"
note.save()
seen["notes"] = [n.body for n in mr.notes.list() if not n.system]
discussion = mr.discussions.create({"body": "A thread"})
seen["discussion_notes"] = [n["body"] for n in discussion.attributes["notes"]]
mr.notes.delete(note.id)
seen["notes_after_delete"] = [n.body for n in mr.notes.list() if not n.system]

merged = mr.merge()
seen["merged_state"] = merged["state"]
seen["main_has_greeting"] = project.files.get(file_path="src/hello.txt", ref="main").decode().decode()

# a merge request deleted by its project's owner
project.branches.create({"branch": "scratch", "ref": "main"})
project.files.update("src/hello.txt", {"branch": "scratch", "content": "scratch\n", "commit_message": "Scratch"})
scratch = project.mergerequests.create({"source_branch": "scratch", "target_branch": "main", "title": "Scratch"})
project.mergerequests.delete(scratch.iid)
try:
    project.mergerequests.get(scratch.iid)
    seen["deleted_mr"] = "still there"
except gitlab.exceptions.GitlabGetError as error:
    seen["deleted_mr"] = error.response_code

# errors surface as python-gitlab's exceptions with GitLab's status
try:
    gl.projects.get(f"py-{suffix}/no-such-project")
except gitlab.exceptions.GitlabGetError as error:
    seen["missing_project"] = error.response_code

# clean up through the API
alice.delete()
seen["users_after_delete"] = [u.username for u in gl.users.list(username=alice.username)]

json.dump(seen, sys.stdout)
