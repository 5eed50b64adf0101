"""python-gitlab's approvals calls against a running Tributary.

Run by python-gitlab-approvals.test.ts with TRIBUTARY_URL, TRIBUTARY_TOKEN (root's),
TRIBUTARY_PROJECT (a project with a merge request !1 by root), TRIBUTARY_DEVELOPER_ID and
TRIBUTARY_DEVELOPER_TOKEN (a Developer of it). Prints one JSON object of what it saw.
"""
import json
import os

import gitlab

url = os.environ["TRIBUTARY_URL"]
root = gitlab.Gitlab(url, private_token=os.environ["TRIBUTARY_TOKEN"])
developer = gitlab.Gitlab(url, private_token=os.environ["TRIBUTARY_DEVELOPER_TOKEN"])
developer_id = int(os.environ["TRIBUTARY_DEVELOPER_ID"])
seen = {}

project = root.projects.get(os.environ["TRIBUTARY_PROJECT"])
settings = project.approvals.get()
seen["reset_approvals_on_push"] = settings.reset_approvals_on_push
settings.merge_requests_author_approval = False
settings.save()

rule = project.approvalrules.create({"name": "Python", "approvals_required": 1, "user_ids": [developer_id]})
seen["rule"] = {"name": rule.name, "approvals_required": rule.approvals_required, "users": [u["id"] for u in rule.users]}
seen["rules"] = [r.name for r in project.approvalrules.list()]

mr = project.mergerequests.get(1)
seen["before"] = mr.approvals.get().approvals_left

as_developer = developer.projects.get(project.id).mergerequests.get(1)
as_developer.approve()
after = mr.approvals.get()
seen["after"] = {"approved": after.approved, "approvals_left": after.approvals_left, "approved_by": [a["user"]["id"] for a in after.approved_by]}
seen["state_rules"] = [{"name": r["name"], "approved": r["approved"]} for r in mr.approval_state.get().rules]
as_developer.unapprove()
seen["unapproved_left"] = mr.approvals.get().approvals_left

print(json.dumps(seen))
