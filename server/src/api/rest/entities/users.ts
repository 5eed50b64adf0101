import type { User } from '../../../domains/users/user.js';

export interface UrlBuilder {
  web(path: string): string;
}

/** GitLab's "simple user", embedded everywhere (author, member, merge_user …). */
export function userBasic(user: User, urls: UrlBuilder) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: null,
    web_url: urls.web(user.username),
  };
}

/** GET /users/:id as seen by others. */
export function userPublic(user: User, urls: UrlBuilder) {
  return Object.assign(userBasic(user, urls), {
    created_at: user.created_at.toISOString(),
    bio: user.bio,
    location: '',
    public_email: null,
    website_url: '',
    organization: '',
    job_title: '',
    pronouns: null,
    bot: false,
    work_information: null,
  });
}

/** GET /user, and GET /users/:id for administrators: adds private fields. */
export function userFull(user: User, urls: UrlBuilder) {
  return Object.assign(userPublic(user, urls), {
    last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
    confirmed_at: user.created_at.toISOString(),
    // GitLab's date of the user's latest activity; a sign-in counts (current_sign_in_at is the latest one).
    last_activity_on: user.current_sign_in_at?.toISOString().slice(0, 10) ?? null,
    email: user.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: 100000,
    current_sign_in_at: user.current_sign_in_at?.toISOString() ?? null,
    identities: [],
    can_create_group: true,
    can_create_project: true,
    two_factor_enabled: false,
    external: false,
    private_profile: false,
    commit_email: user.email,
    is_admin: user.is_admin,
  });
}
