import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../platform/errors.js';
import { validateApplicationSettings } from './application-settings.service.js';

describe('validateApplicationSettings', () => {
  it.each([
    [{ allow_runner_registration_token: true }, { allow_runner_registration_token: true }],
    [{ runner_token_expiration_interval: 7200 }, { runner_token_expiration_interval: 7200 }],
    [{ project_runner_token_expiration_interval: null }, { project_runner_token_expiration_interval: null }],
    [{ max_artifacts_size: 1 }, { max_artifacts_size: 1 }],
    [{}, {}],
  ])('%j is kept as %j', (input, expected) => expect(validateApplicationSettings(input)).toEqual(expected));

  it.each([
    [{ runner_token_expiration_interval: 0 }, 'runner_token_expiration_interval'],
    [{ group_runner_token_expiration_interval: -5 }, 'group_runner_token_expiration_interval'],
    [{ project_runner_token_expiration_interval: 1.5 }, 'project_runner_token_expiration_interval'],
    [{ max_artifacts_size: 0 }, 'max_artifacts_size'],
  ])('%j is refused on %s', (input, field) => {
    let error: unknown;
    try {
      validateApplicationSettings(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).body).toEqual({ [field]: ['must be greater than 0'] });
  });
});
