import { describe, expect, it } from 'vitest';
import { editorKeyAction, type EditorKey } from './editor-keys';

const key = (name: string, modifiers: Partial<EditorKey> = {}): EditorKey => ({ key: name, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...modifiers });
const all = { empty: true, canCancel: true, canEditLast: true };

describe('editorKeyAction', () => {
  it.each([
    ['Ctrl+Enter sends', key('Enter', { ctrlKey: true }), all, 'submit'],
    ['Cmd+Enter sends', key('Enter', { metaKey: true }), all, 'submit'],
    ['Shift+Ctrl+Enter sends directly', key('Enter', { ctrlKey: true, shiftKey: true }), all, 'submit-direct'],
    ['Shift+Cmd+Enter sends directly', key('Enter', { metaKey: true, shiftKey: true }), all, 'submit-direct'],
    ['a bare Enter is a new line', key('Enter'), all, null],
    ['Escape cancels', key('Escape'), all, 'cancel'],
    ['Escape does nothing where there is nothing to cancel', key('Escape'), { ...all, canCancel: false }, null],
    ['Up in an empty field edits the last own note', key('ArrowUp'), all, 'edit-last'],
    ['Up in a field with text moves the caret', key('ArrowUp'), { ...all, empty: false }, null],
    ['Shift+Up is a selection', key('ArrowUp', { shiftKey: true }), all, null],
    ['Ctrl+Up is not Up', key('ArrowUp', { ctrlKey: true }), all, null],
    ['Up does nothing in a field that cannot edit the last note (a reply)', key('ArrowUp'), { ...all, canEditLast: false }, null],
  ] as const)('%s', (_, event, state, expected) => expect(editorKeyAction(event, state)).toBe(expected));
});
