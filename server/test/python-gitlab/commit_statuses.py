"""python-gitlab's commit statuses against a running Tributary.

Run by python-gitlab-commit-statuses.test.ts with TRIBUTARY_URL, TRIBUTARY_TOKEN (root's) and
TRIBUTARY_SUFFIX. A commit's statuses are created and listed through python-gitlab's own objects
(`commit.statuses.create`, `commit.statuses.list`); a refused transition is its GitlabCreateError.
Prints one JSON object of what it saw.
"""
import json
import os
import sys

import gitlab

gl = gitlab.Gitlab(os.environ["TRIBUTARY_URL"], private_token=os.environ["TRIBUTARY_TOKEN"])
gl.auth()
seen = {}

project = gl.projects.create({"name": f"py-statuses-{os.environ['TRIBUTARY_SUFFIX']}", "initialize_with_readme": True})
commit = project.commits.get("main")
status = commit.statuses.create({"state": "running", "name": "jenkins", "target_url": "https://ci.example.com/7", "description": "building"})
seen["created"] = [status.name, status.status, status.ref, status.target_url]
done = commit.statuses.create({"state": "success", "name": "jenkins", "coverage": 91.5})
seen["same_job"] = done.id == status.id
seen["listed"] = [[s.name, s.status, s.coverage] for s in commit.statuses.list()]
try:
    commit.statuses.create({"state": "bogus"})
    seen["bogus"] = "accepted"
except gitlab.exceptions.GitlabCreateError as error:
    seen["bogus"] = error.response_code
pipeline = project.pipelines.get(done.pipeline_id)
seen["pipeline"] = [pipeline.source, pipeline.status, pipeline.coverage]
project.delete()
json.dump(seen, sys.stdout)
