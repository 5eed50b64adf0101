import { useState } from 'react';
import { slugify } from '../lib/slugify';

/** A name and a path that follows it (slugified) until the person edits the path themselves. */
export function useSlugField() {
  const [name, setNameState] = useState('');
  const [path, setPathState] = useState('');
  const [pathEdited, setPathEdited] = useState(false);
  return {
    name,
    path,
    setName(value: string) {
      setNameState(value);
      if (!pathEdited) setPathState(slugify(value));
    },
    setPath(value: string) {
      setPathState(value);
      setPathEdited(value !== '');
    },
  };
}
