import { useId } from 'react';

/** The progress of one upload, with its percentage written out (docs/product.md's forms send files). */
export function UploadProgress({ percent }: { percent: number | null }) {
  const id = useId();
  if (percent === null) return null;
  const done = percent >= 100;
  return (
    <div className="upload-progress">
      <label htmlFor={id}>Upload progress</label>
      <progress id={id} max={100} value={percent}>
        {percent}%
      </progress>
      <span className="upload-percent">
        {done ? 'Upload complete: ' : 'Uploading: '}
        {percent}%
      </span>
    </div>
  );
}
