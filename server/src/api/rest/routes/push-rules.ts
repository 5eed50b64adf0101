import type { FastifyInstance } from 'fastify';
import { PUSH_RULE_FIELDS } from '../../../domains/push-rules/push-rule.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { pushRuleEntity } from '../entities/push-rules.js';
import type { Params } from '../params.js';

/** The push rule fields as sent; the service validates them (push-rule-settings.ts). */
const ruleInput = (params: Params): Record<string, unknown> => Object.fromEntries(PUSH_RULE_FIELDS.filter((field) => params[field] !== undefined).map((field) => [field, params[field]]));

/** doc/api/project_push_rules.md: one rule per project, Maintainers and above. */
export function pushRuleRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { pushRules } = ctx.services;
  const path = '/projects/:id/push_rule';

  // GitLab answers `null` for a project without a rule.
  app.get(path, async (request, reply) => {
    const rule = await pushRules.show(request.actor, pathParam(request, 'id'));
    return reply.type('application/json').send(rule ? JSON.stringify(pushRuleEntity(rule)) : 'null');
  });

  app.post(path, async (request, reply) => {
    const created = await pushRules.create(signedIn(request), pathParam(request, 'id'), ruleInput(input(request)));
    return reply.status(201).send(pushRuleEntity(created));
  });

  app.put(path, async (request) => pushRuleEntity(await pushRules.update(signedIn(request), pathParam(request, 'id'), ruleInput(input(request)))));

  app.delete(path, async (request, reply) => {
    await pushRules.remove(signedIn(request), pathParam(request, 'id'));
    return reply.status(204).send();
  });
}
