/**
 * A file input that previews a chosen cover before anything is sent, and names a chosen audio file. A file
 * over `maxBytes` (the server's own limit, from server/platform/common/body-limits.ts) is refused at once, before
 * an upload could waste minutes. The accept attribute only guides the file picker: the server checks every
 * file by its content and its size, and its 422 or 413 message is what the form shows.
 *
 * The cover preview is a data: URL read with FileReader, because the pages' Content-Security-Policy allows
 * data: images but not blob: URLs (nor any media source but our own), so URL.createObjectURL previews are
 * blocked. With blob: in img-src and media-src, object URLs would be lighter and could preview audio too.
 */
import { useEffect, useState } from 'react';
import { FieldShell } from '../../shared/Form';

interface FileFieldProps {
  id: string;
  name: string;
  label: string;
  kind: 'image' | 'audio';
  /** What the field takes, e.g. "MP3, M4A, OGG or WAV"; the size limit is added. */
  formats: string;
  maxBytes: number;
  error?: string;
  required?: boolean;
}

export const IMAGE_TYPES = 'image/jpeg,image/png,image/webp';
export const AUDIO_TYPES = 'audio/*';

interface Chosen {
  file: File;
  /** For images: a data: URL, once read. */
  preview?: string;
}

export function FileField({ id, name, label, kind, formats, maxBytes, error, required }: FileFieldProps) {
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const hint = `${formats}, at most ${formatSize(maxBytes)}.`;

  useEffect(() => {
    if (!chosen || kind !== 'image' || chosen.preview !== undefined) return;
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') {
        const preview = reader.result;
        setChosen((current) => (current?.file === chosen.file ? { ...current, preview } : current));
      }
    };
    reader.readAsDataURL(chosen.file);
    return () => reader.abort();
  }, [chosen, kind]);

  return (
    <FieldShell id={id} label={label} hint={hint} error={tooLarge ?? error}>
      {(a11y) => (
        <>
          <input
            id={id}
            name={name}
            type="file"
            accept={kind === 'image' ? IMAGE_TYPES : AUDIO_TYPES}
            required={required}
            {...a11y}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file && file.size > maxBytes) {
                // Cleared, so the form cannot send it.
                event.currentTarget.value = '';
                setChosen(null);
                setTooLarge(
                  `${file.name} is ${formatSize(file.size)}, over the limit of ${formatSize(maxBytes)}. Choose a smaller file.`,
                );
                return;
              }
              setTooLarge(null);
              setChosen(file ? { file } : null);
            }}
          />
          {chosen && (
            <p className="file-chosen">
              Chosen: {chosen.file.name} ({formatSize(chosen.file.size)})
            </p>
          )}
          {chosen?.preview && kind === 'image' && (
            <img
              className="file-preview"
              src={chosen.preview}
              alt={`Preview of the chosen file ${chosen.file.name}`}
            />
          )}
        </>
      )}
    </FieldShell>
  );
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
