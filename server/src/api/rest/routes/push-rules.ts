import type { FastifyInstance } from 'fastify';
import { PUSH_RULE_BOOLEAN_FIELDS, PUSH_RULE_REGEX_FIELDS, type PushRuleField } from '../../../domains/push-rules/push-rule.js';
import { signedIn, type RestContext } from '../context.js';
import { pushRuleEntity } from '../entities/push-rules.js';
import { Bool, Input, Int, NamespacedRef, Nullable, Optional, routes, Str } from '../input/route-kit.js';

const Pattern = () => Optional(Nullable(Str()));
const Flag = () => Optional(Bool());

/**
 * GitLab's push rule parameters: the patterns are Strings ('' or null clears one), the checks
 * Booleans, max_file_size an Integer (MB). Whether a pattern compiles, the size's range and
 * POST's "at least one" are the domain's rules (push-rule-settings.ts).
 */
const PushRuleFields = {
  ...(Object.fromEntries(PUSH_RULE_REGEX_FIELDS.map((field) => [field, Pattern()])) as Record<(typeof PUSH_RULE_REGEX_FIELDS)[number], ReturnType<typeof Pattern>>),
  ...(Object.fromEntries(PUSH_RULE_BOOLEAN_FIELDS.map((field) => [field, Flag()])) as Record<(typeof PUSH_RULE_BOOLEAN_FIELDS)[number], ReturnType<typeof Flag>>),
  max_file_size: Optional(Int()),
} satisfies Record<PushRuleField, unknown>;
const PushRuleWrite = Input({ id: NamespacedRef(), ...PushRuleFields });

/** doc/api/project_push_rules.md: one rule per project, Maintainers and above. */
export function pushRuleRoutes(app: FastifyInstance, ctx: RestContext<'pushRules'>): void {
  const { pushRules } = ctx.services;
  const r = routes(app);
  const path = '/projects/:id/push_rule';

  // GitLab answers `null` for a project without a rule.
  r.get(path, Input({ id: NamespacedRef() }), async ({ id }, request, reply) => {
    const rule = await pushRules.show(request.actor, id);
    return reply.type('application/json').send(rule ? JSON.stringify(pushRuleEntity(rule)) : 'null');
  });

  r.post(path, PushRuleWrite, async ({ id, ...rule }, request, reply) => {
    const created = await pushRules.create(signedIn(request), id, rule);
    return reply.status(201).send(pushRuleEntity(created));
  });

  r.put(path, PushRuleWrite, async ({ id, ...rule }, request) => pushRuleEntity(await pushRules.update(signedIn(request), id, rule)));

  r.delete(path, Input({ id: NamespacedRef() }), async ({ id }, request, reply) => {
    await pushRules.remove(signedIn(request), id);
    return reply.status(204).send();
  });
}
