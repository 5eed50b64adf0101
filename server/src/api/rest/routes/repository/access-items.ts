/**
 * The declared parameters of branch and tag protection (doc/api/protected_branches.md,
 * protected_tags.md): access levels and the `allowed_to_*` lists, sent as
 * `allowed_to_push[0][user_id]=…` (gitbeaker's query strings), `allowed_to_push[][access_level]=…`
 * or a JSON array of objects.
 */
import { Bool, Int, List, Obj, Optional } from '../../input/route-kit.js';

export const AccessItems = () =>
  Optional(
    List(
      Obj({
        id: Optional(Int()),
        access_level: Optional(Int()),
        user_id: Optional(Int()),
        group_id: Optional(Int()),
        deploy_key_id: Optional(Int()),
        _destroy: Optional(Bool()),
      }),
    ),
  );

export const ProtectionFields = {
  push_access_level: Optional(Int()),
  merge_access_level: Optional(Int()),
  unprotect_access_level: Optional(Int()),
  allowed_to_push: AccessItems(),
  allowed_to_merge: AccessItems(),
  allowed_to_unprotect: AccessItems(),
  allow_force_push: Optional(Bool()),
  code_owner_approval_required: Optional(Bool()),
};
