// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fakeNetwork, renderInApp } from '../../test-support/component';
import { MergeRequestForm, TITLE_REQUIRED, type MergeRequestFormValues } from './MergeRequestForm';

const title = () => screen.getByRole('textbox', { name: /^Title/ });

const EMPTY: MergeRequestFormValues = {
  title: '',
  description: '',
  assignees: [],
  reviewers: [],
  targetBranch: 'main',
  removeSourceBranch: false,
  squash: false,
  allowCollaboration: false,
};

function Form({ onSubmit, initial = EMPTY }: { onSubmit: (values: MergeRequestFormValues) => void; initial?: MergeRequestFormValues }) {
  const [values, setValues] = useState(initial);
  return (
    <MergeRequestForm
      targetProjectId={1}
      values={values}
      onChange={setValues}
      isFork={false}
      submitLabel="Create merge request"
      submitting={false}
      error={null}
      errorTitle="The merge request could not be created."
      onSubmit={() => onSubmit(values)}
      cancelTo="/acme/app/-/merge_requests"
    />
  );
}

/** The merge request form (new and edit): an empty title is said under the field, not only by a disabled button. */
describe('MergeRequestForm', () => {
  it('says that the title is required when the form is sent without one, and sends nothing', async () => {
    fakeNetwork([]);
    const onSubmit = vi.fn();
    renderInApp(<Form onSubmit={onSubmit} />);
    const send = screen.getByRole('button', { name: 'Create merge request' });
    expect((send as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText(TITLE_REQUIRED)).toBeNull();

    await userEvent.click(send);
    expect(await screen.findByText(TITLE_REQUIRED)).toBeTruthy();
    expect(document.activeElement).toBe(title());
    expect(onSubmit).not.toHaveBeenCalled();

    // a title of only the draft prefix is still empty
    await userEvent.type(title(), 'Draft: ');
    await userEvent.click(send);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText(TITLE_REQUIRED)).toBeTruthy();

    await userEvent.type(title(), 'Fix the greeting');
    expect(screen.queryByText(TITLE_REQUIRED)).toBeNull();
    await userEvent.click(send);
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ title: 'Draft: Fix the greeting' }));
  });

  it('says it on the edit form when the title is cleared', async () => {
    fakeNetwork([]);
    const onSubmit = vi.fn();
    renderInApp(<Form onSubmit={onSubmit} initial={{ ...EMPTY, title: 'Fix it' }} />);
    await userEvent.clear(title());
    await userEvent.click(screen.getByRole('button', { name: 'Create merge request' }));
    expect(await screen.findByText(TITLE_REQUIRED)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
