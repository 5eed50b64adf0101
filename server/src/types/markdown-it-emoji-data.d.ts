// markdown-it-emoji's name → character table (the data its `full` preset renders with).
declare module 'markdown-it-emoji/lib/data/full.mjs' {
  const emojiByName: Record<string, string>;
  export default emojiByName;
}
