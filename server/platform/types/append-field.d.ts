/** append-field (multer's own dependency) has no types of its own. */
declare module 'append-field' {
  export default function appendField(store: object, key: string, value: unknown): void;
}
