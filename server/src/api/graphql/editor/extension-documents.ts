/**
 * The GraphQL documents GitLab Workflow (GitLab's VS Code extension) sends to review a merge
 * request, character for character (src/gitlab/graphql/ and gitlab_new_service.ts of the
 * extension), so the tests prove that the extension runs unchanged. Test support only.
 */
const positionFragment = `
  fragment position on Note {
    position {
      diffRefs {
        baseSha
        headSha
        startSha
      }
      filePath
      positionType
      newLine
      oldLine
      newPath
      oldPath
      positionType
    }
  }
`;

const noteDetailsFragment = `
  ${positionFragment}
  fragment noteDetails on Note {
    id
    createdAt
    system
    author {
      avatarUrl
      name
      username
      webUrl
    }
    body
    bodyHtml
    url
    userPermissions {
      resolveNote
      adminNote
      createNote
    }
    ...position
  }
`;

const discussionDetailsFragment = `
  ${noteDetailsFragment}
  fragment discussionDetails on Discussion {
    replyId
    createdAt
    resolved
    resolvable
    notes {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...noteDetails
      }
    }
  }
`;

const discussionsFragment = `
  ${discussionDetailsFragment}
  fragment discussions on DiscussionConnection {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      ...discussionDetails
    }
  }
`;

export const getMrDiscussionsQuery = `
  ${discussionsFragment}
  query GetMrDiscussions($projectPath: ID!, $iid: String!, $afterCursor: String) {
    project(fullPath: $projectPath) {
      id
      mergeRequest(iid: $iid) {
        discussions(after: $afterCursor) {
          ...discussions
        }
      }
    }
  }
`;

export const getMrPermissionsQuery = `
  query GetMrPermissions($projectPath: ID!, $iid: String!) {
    project(fullPath: $projectPath) {
      mergeRequest(iid: $iid) {
        userPermissions {
          createNote
        }
      }
    }
  }
`;

export const createDiffNoteMutation = `
  ${discussionDetailsFragment}
  mutation CreateDiffNote($issuableId: NoteableID!, $body: String!, $position: DiffPositionInput!) {
    createDiffNote(input: { noteableId: $issuableId, body: $body, position: $position }) {
      errors
      note {
        discussion {
          ...discussionDetails
        }
      }
    }
  }
`;

export const discussionSetResolved = `
  mutation DiscussionToggleResolve($replyId: DiscussionID!, $resolved: Boolean!) {
    discussionToggleResolve(input: { id: $replyId, resolve: $resolved }) {
      errors
    }
  }
`;

export const createNoteMutation = `
  ${noteDetailsFragment}
  mutation CreateNote($issuableId: NoteableID!, $body: String!, $replyId: DiscussionID) {
    createNote(input: { noteableId: $issuableId, body: $body, discussionId: $replyId }) {
      errors
      note {
        ...noteDetails
      }
    }
  }
`;

export const deleteNoteMutation = `
  mutation DeleteNote($noteId: NoteID!) {
    destroyNote(input: { id: $noteId }) {
      errors
    }
  }
`;

export const updateNoteBodyMutation = `
  mutation UpdateNoteBody($noteId: NoteID!, $body: String) {
    updateNote(input: { id: $noteId, body: $body }) {
      errors
    }
  }
`;
