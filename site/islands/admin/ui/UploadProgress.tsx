import { useId } from 'react';

/**
 * The progress of one upload, with its percentage written out (docs/product.md's forms send files); or,
 * given a label and a text, of other work the page waits for (a recording being aligned).
 */
export function UploadProgress(props: { percent: number | null; label?: string; text?: string }) {
  const { percent, label = 'Upload progress' } = props;
  const id = useId();
  if (percent === null) return null;
  const done = percent >= 100;
  return (
    <div className="upload-progress">
      <label htmlFor={id}>{label}</label>
      <progress id={id} max={100} value={percent}>
        {percent}%
      </progress>
      <span className="upload-percent">
        {props.text ?? `${done ? 'Upload complete: ' : 'Uploading: '}${percent}%`}
      </span>
    </div>
  );
}
