import { describe, expect, it } from 'vitest';
import { eventNote } from '../notes/system-note-text.js';

describe('the description event’s system note', () => {
  it('says what GitLab says; the version is linked through the event, not the text', () => {
    expect(eventNote({ action: 'description', from: null, to: '12' })).toEqual({ body: 'changed the description', action: 'description' });
  });
});
