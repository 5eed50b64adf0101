// Only emoji-data.test.ts reads it: the server's list of award names, to check the picker against.
declare module 'markdown-it-emoji/lib/data/full.mjs' {
  const emojiByName: Readonly<Record<string, string>>;
  export default emojiByName;
}
