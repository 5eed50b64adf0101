import { Avatar } from '@primer/react';
import styles from './EntityAvatar.module.css';

const PALETTE = 7;

/** A stable colour index for names without an uploaded avatar, as GitLab's identicons do. */
function paletteIndex(id: number): number {
  return Math.abs(id) % PALETTE;
}

/** A project, group or user picture: the uploaded avatar, or the first letter on a coloured square. */
export function EntityAvatar({
  name,
  id,
  src,
  size = 32,
  square = true,
}: {
  name: string;
  id: number;
  src?: string | null;
  size?: number;
  square?: boolean;
}) {
  if (src) return <Avatar src={src} size={size} square={square} alt="" />;
  return (
    <span
      aria-hidden="true"
      className={styles.identicon}
      data-palette={paletteIndex(id)}
      data-square={square ? '' : undefined}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.45) }}
    >
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}
