import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFromBody, errorMessage, fieldErrorsSentence, humanizeField, messageForStatus } from './api-error';

describe('apiErrorFromBody', () => {
  it('uses a string message as is', () => {
    const error = apiErrorFromBody(404, { message: '404 Project Not Found' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.message).toBe('404 Project Not Found');
    expect(error.isNotFound).toBe(true);
  });

  it('turns validation objects into field errors and a sentence', () => {
    const error = apiErrorFromBody(400, {
      message: { name: ['has already been taken'], path: ['has already been taken', 'is reserved'] },
    });
    expect(error.fieldErrors).toEqual({
      name: ['has already been taken'],
      path: ['has already been taken', 'is reserved'],
    });
    expect(error.message).toBe('Name has already been taken. Path has already been taken. Path is reserved');
  });

  it('reads {"error": …} bodies, with an OAuth description when present', () => {
    expect(apiErrorFromBody(400, { error: 'title is missing' }).message).toBe('title is missing');
    expect(
      apiErrorFromBody(403, { error: 'insufficient_scope', error_description: 'The request requires higher privileges.' })
        .message,
    ).toBe('insufficient_scope: The request requires higher privileges.');
  });

  it('falls back to the status text for empty or HTML bodies', () => {
    expect(apiErrorFromBody(429, null).message).toBe(messageForStatus(429));
    expect(apiErrorFromBody(502, '<html>Bad gateway</html>').message).toBe(messageForStatus(502));
    expect(apiErrorFromBody(500, { message: '' }).message).toBe(messageForStatus(500));
  });

  it('keeps a short plain-text body', () => {
    expect(apiErrorFromBody(400, 'Invalid reference name').message).toBe('Invalid reference name');
  });
});

describe('humanizeField', () => {
  it.each([
    ['name', 'Name'],
    ['namespace_id', 'Namespace id'],
    ['base', ''],
    ['project_feature.merge_requests_access_level', 'Merge requests'],
    ['project_feature.builds_access_level', 'CI/CD'],
  ])('%s → %s', (field, expected) => expect(humanizeField(field)).toBe(expected));
});

describe('fieldErrorsSentence', () => {
  it('leaves base errors without a field name', () => {
    expect(fieldErrorsSentence({ base: ['Something is wrong'] })).toBe('Something is wrong');
  });
});

describe('errorMessage', () => {
  it('prefixes non-API failures as network errors', () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe('Network error: Failed to fetch');
    expect(errorMessage(new ApiError(401, 'Invalid login or password.'))).toBe('Invalid login or password.');
    expect(errorMessage('weird')).toBe('Something went wrong. Try again.');
  });
});
