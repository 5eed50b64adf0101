import { t } from '@tributary/contracts/i18n';

/**
 * Messages with links or bold parts inside ('%{link} the target branch',
 * '%{boldStart}Merging!%{boldEnd} …') are still interpolated by `t()`: each placeholder
 * becomes a marker, and the text is split at the markers so a component can put an
 * element where each one was. `%{xStart}…%{xEnd}` pairs wrap the text between them.
 */
export type MessagePart = { kind: 'text'; text: string } | { kind: 'slot'; name: string } | { kind: 'wrap'; name: string; text: string };

const MARK = '\u0000';

export function splitMessage(message: string, values: Record<string, string | number> = {}): MessagePart[] {
  const names = [...message.matchAll(/%\{(\w+)\}/g)].map((match) => match[1]!).filter((name) => !(name in values));
  const markers = Object.fromEntries(names.map((name) => [name, `${MARK}${name}${MARK}`]));
  const pieces = t(message, { ...values, ...markers }).split(MARK);
  const parts: MessagePart[] = [];
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index]!;
    if (index % 2 === 0) {
      if (piece !== '') parts.push({ kind: 'text', text: piece });
      continue;
    }
    const wrap = /^(\w+)Start$/.exec(piece);
    const end = wrap ? pieces.indexOf(`${wrap[1]}End`, index + 1) : -1;
    if (wrap && end !== -1) {
      parts.push({ kind: 'wrap', name: wrap[1]!, text: pieces.slice(index + 1, end).join('') });
      index = end;
    } else {
      parts.push({ kind: 'slot', name: piece });
    }
  }
  return parts;
}
