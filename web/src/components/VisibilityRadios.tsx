import { FormControl, Radio, RadioGroup } from '@primer/react';
import type { Visibility } from '../lib/gitlab-types';
import { VisibilityIcon, visibilityLabel } from './VisibilityIcon';

const ORDER: Visibility[] = ['private', 'internal', 'public'];

/** GitLab's visibility choice: a radio per level, each with what it means. */
export function VisibilityRadios({
  value,
  onChange,
  descriptions,
  disabled = [],
}: {
  value: Visibility;
  onChange: (value: Visibility) => void;
  descriptions: Record<Visibility, string>;
  disabled?: Visibility[];
}) {
  return (
    <RadioGroup name="visibility" onChange={(selected) => selected && onChange(selected as Visibility)}>
      <RadioGroup.Label>Visibility Level</RadioGroup.Label>
      {ORDER.map((level) => (
        <FormControl key={level} disabled={disabled.includes(level)}>
          <Radio value={level} checked={value === level} />
          <FormControl.Label>
            <VisibilityIcon visibility={level} decorative /> {visibilityLabel(level)}
          </FormControl.Label>
          <FormControl.Caption>{descriptions[level]}</FormControl.Caption>
        </FormControl>
      ))}
    </RadioGroup>
  );
}

export const PROJECT_VISIBILITY_DESCRIPTIONS: Record<Visibility, string> = {
  private:
    'Project access must be granted explicitly to each user. If this project is part of a group, access is granted to members of the group.',
  internal: 'The project can be accessed by any logged in user except external users.',
  public: 'The project can be accessed without any authentication.',
};

export const GROUP_VISIBILITY_DESCRIPTIONS: Record<Visibility, string> = {
  private: 'The group and its projects can only be viewed by members.',
  internal: 'The group and any internal projects can be viewed by any logged in user except external users.',
  public: 'The group and any public projects can be viewed without any authentication.',
};
