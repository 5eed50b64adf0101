import { SegmentedControl, Spinner } from '@primer/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { PageError } from '../../components/PageError';
import type { DiffFile } from '../../lib/diff-file';
import { formatBytes } from '../../lib/file-content';
import {
  DEFAULT_IMAGE_VIEW,
  fitWithin,
  IMAGE_RESIZE_DEBOUNCE_MS,
  imageChange,
  imageViewModes,
  nudgeSwipe,
  ONION_DEFAULT_OPACITY,
  opacityFromSlider,
  overlayFrame,
  SWIPE_EXTRA_PX,
  swipePosition,
  type ImageViewMode,
  type Size,
} from '../../lib/image-diff';
import { useDiffContext } from './DiffContext';
import { useDiffSlots } from './DiffSlots';
import styles from './ImageDiff.module.css';
import { useImageBlob } from './useImageBlob';

const MODE_LABELS: Record<ImageViewMode, string> = { twoup: '2-up', swipe: 'Swipe', onion: 'Onion skin' };

interface LoadedImage {
  url: string | null;
  size: number | null;
  natural: Size | null;
  isPending: boolean;
  error: unknown;
  retry: () => void;
  onLoad: (size: Size) => void;
}

function useImage(projectId: number, sha: string | null, path: string): LoadedImage {
  const blob = useImageBlob(projectId, sha, path);
  const [natural, setNatural] = useState<Size | null>(null);
  return { ...blob, natural, onLoad: setNatural };
}

/** The width available to the viewer, re-measured after resizes settle (400 ms). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    let timer = 0;
    const observer = new ResizeObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setWidth(element.clientWidth), IMAGE_RESIZE_DEBOUNCE_MS);
    });
    observer.observe(element);
    return () => {
      window.clearTimeout(timer);
      observer.disconnect();
    };
  }, []);
  return [ref, width] as const;
}

/** "W: 120px | H: 80px | Size: 3.4 KiB", GitLab's image meta line. */
function ImageMeta({ image }: { image: LoadedImage }) {
  const parts = [];
  if (image.natural) parts.push(`W: ${image.natural.width}px`, `H: ${image.natural.height}px`);
  if (image.size !== null) parts.push(`Size: ${formatBytes(image.size)}`);
  return <p className={styles.meta}>{parts.join(' | ')}</p>;
}

function Frame({ image, alt, side, maxWidth, file }: { image: LoadedImage; alt: string; side: 'old' | 'new'; maxWidth: number; /** the new image, which the page's ImageOverlay slot wraps */ file?: DiffFile }) {
  const slots = useDiffSlots();
  if (image.isPending || !image.url) {
    if (image.error) return <PageError title="The image could not be loaded." error={image.error} onRetry={image.retry} />;
    return <Spinner size="medium" srText={`Loading ${alt}`} />;
  }
  const fitted = image.natural ? fitWithin(image.natural, maxWidth) : null;
  const { ImageOverlay } = slots;
  const img = (
    <img
      src={image.url}
      alt={alt}
      width={fitted?.width}
      height={fitted?.height}
      onLoad={(event) => image.onLoad({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
      className={styles.checker}
    />
  );
  return (
    <figure className={styles.figure}>
      <span className={`${styles.frame} ${side === 'old' ? styles.frameOld : styles.frameNew}`}>
        {file && ImageOverlay ? (
          <ImageOverlay file={file} natural={image.natural} drawn={fitted}>
            {img}
          </ImageOverlay>
        ) : (
          img
        )}
      </span>
      <figcaption>
        <ImageMeta image={image} />
      </figcaption>
    </figure>
  );
}

function Swipe({ before, after, maxWidth, name }: { before: LoadedImage; after: LoadedImage; maxWidth: number; name: string }) {
  const layout = overlayFrame(before.natural ?? { width: 1, height: 1 }, after.natural ?? { width: 1, height: 1 }, maxWidth, SWIPE_EXTRA_PX);
  const [position, setPosition] = useState<number | null>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const current = position ?? Math.round(layout.frame.width / 2);
  const dragging = useRef(false);

  const move = (event: PointerEvent) => {
    const rect = frameRef.current?.getBoundingClientRect();
    if (rect) setPosition(swipePosition(event.clientX, rect.left, layout.frame.width));
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      setPosition(nudgeSwipe(current, layout.frame.width, event.key === 'ArrowLeft' ? -1 : 1));
    }
  };
  return (
    <div
      ref={frameRef}
      className={styles.overlay}
      style={{ width: layout.frame.width, height: layout.frame.height }}
      onPointerDown={(event) => {
        dragging.current = true;
        event.currentTarget.setPointerCapture(event.pointerId);
        move(event);
      }}
      onPointerMove={(event) => dragging.current && move(event)}
      onPointerUp={() => (dragging.current = false)}
    >
      <img src={before.url ?? undefined} alt={`${name} before`} width={layout.before.width} height={layout.before.height} className={`${styles.layer} ${styles.checker}`} draggable={false} />
      <div className={styles.swipeClip} style={{ width: current }}>
        <img src={after.url ?? undefined} alt={`${name} after`} width={layout.after.width} height={layout.after.height} className={`${styles.layer} ${styles.checker}`} draggable={false} />
      </div>
      <div
        className={styles.handle}
        style={{ left: current }}
        role="slider"
        tabIndex={0}
        aria-label="Swipe position"
        aria-valuemin={0}
        aria-valuemax={layout.frame.width}
        aria-valuenow={current}
        onKeyDown={onKey}
      />
    </div>
  );
}

function Onion({ before, after, maxWidth, name }: { before: LoadedImage; after: LoadedImage; maxWidth: number; name: string }) {
  const layout = overlayFrame(before.natural ?? { width: 1, height: 1 }, after.natural ?? { width: 1, height: 1 }, maxWidth);
  const [opacity, setOpacity] = useState(ONION_DEFAULT_OPACITY);
  const id = useId();
  return (
    <div className={styles.onion}>
      <div className={styles.overlay} style={{ width: layout.frame.width, height: layout.frame.height }}>
        <img src={before.url ?? undefined} alt={`${name} before`} width={layout.before.width} height={layout.before.height} className={`${styles.layer} ${styles.checker}`} />
        <img src={after.url ?? undefined} alt={`${name} after`} width={layout.after.width} height={layout.after.height} className={`${styles.layer} ${styles.checker}`} style={{ opacity }} />
      </div>
      <div className={styles.slider}>
        <span className={styles.sliderEnd} aria-hidden="true" />
        <label htmlFor={id} className="visually-hidden">
          Opacity of the new image
        </label>
        <input id={id} type="range" min={0} max={100} value={Math.round(opacity * 100)} onChange={(event) => setOpacity(opacityFromSlider(event.target.valueAsNumber))} />
        <span className={`${styles.sliderEnd} ${styles.sliderEndNew}`} aria-hidden="true" />
      </div>
    </div>
  );
}

/**
 * A replaced image in 2-up (default), swipe or onion skin; a new,
 * deleted or renamed image in one view; file size and dimensions under each.
 */
export function ImageDiff({ file }: { file: DiffFile }) {
  const { refs, actions, stateOf } = useDiffContext();
  const { ImageComments } = useDiffSlots();
  const change = imageChange(file);
  const modes = imageViewModes(change);
  const mode: ImageViewMode = stateOf(file).imageMode ?? DEFAULT_IMAGE_VIEW;
  const setMode = (next: ImageViewMode) => actions.setImageMode(file, next);
  const [ref, width] = useWidth();
  const before = useImage(refs.projectId, change === 'new' ? null : refs.baseSha, file.oldPath);
  const after = useImage(refs.projectId, change === 'deleted' ? null : refs.headSha, file.newPath);
  const name = file.newPath.slice(file.newPath.lastIndexOf('/') + 1);
  const bothLoaded = before.natural !== null && after.natural !== null;

  return (
    <div ref={ref} className={styles.viewer}>
      {modes.length > 0 ? (
        <>
          <SegmentedControl aria-label="Image view" size="small" className={styles.modes}>
            {modes.map((candidate) => (
              <SegmentedControl.Button key={candidate} selected={candidate === mode} onClick={() => setMode(candidate)}>
                {MODE_LABELS[candidate]}
              </SegmentedControl.Button>
            ))}
          </SegmentedControl>
          {mode === 'twoup' || !bothLoaded ? (
            <div className={styles.twoup}>
              <Frame image={before} alt={`${name} before`} side="old" maxWidth={Math.max(width / 2 - 32, 40)} />
              <Frame image={after} alt={`${name} after`} side="new" maxWidth={Math.max(width / 2 - 32, 40)} file={file} />
            </div>
          ) : mode === 'swipe' ? (
            <Swipe before={before} after={after} maxWidth={width - 32} name={name} />
          ) : (
            <Onion before={before} after={after} maxWidth={width - 32} name={name} />
          )}
          {mode !== 'twoup' && bothLoaded ? (
            <div className={styles.twoup}>
              <ImageMeta image={before} />
              <ImageMeta image={after} />
            </div>
          ) : null}
        </>
      ) : change === 'deleted' ? (
        <Frame image={before} alt={`${name} (deleted)`} side="old" maxWidth={width - 32} />
      ) : (
        <Frame image={after} alt={name} side="new" maxWidth={width - 32} file={file} />
      )}
      {ImageComments ? <ImageComments file={file} /> : null}
    </div>
  );
}
