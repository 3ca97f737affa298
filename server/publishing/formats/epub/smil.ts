import { esc, seconds, XML_DECLARATION } from './xml';
import { phraseId } from './xhtml';

export interface OverlayPar {
  /** The phrase's clip, relative to OEBPS/. */
  audioHref: string;
  /** The clip's decoded length: the `<par>` plays the whole clip. */
  decodedUs: number;
}

export const smilHref = (chapterNo: number) => `smil/chapter-${chapterNo}.smil`;

/**
 * A chapter's media overlay: the K-th `<par>` plays the K-th phrase's own clip from its start to its
 * decoded end while the reading system lights up `#pK` (docs/formats.md "EPUB 3 with Media Overlays").
 */
export function chapterSmil(textHref: string, pars: readonly OverlayPar[]): string {
  const body = pars
    .map(
      (par, i) =>
        `<par id="par${i + 1}"><text src="../${esc(textHref)}#${phraseId(i + 1)}"/>` +
        `<audio src="../${esc(par.audioHref)}" clipBegin="0s" clipEnd="${seconds(par.decodedUs)}s"/></par>`,
    )
    .join('\n');
  return `${XML_DECLARATION}<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
<body>
${body}
</body>
</smil>
`;
}
