/** A phrase with every occurrence of a term marked, ignoring case (the glossary may write it lower-case). */
export function HighlightedPhrase({ phrase, term }: { phrase: string; term: string }) {
  const at = term ? phrase.toLocaleLowerCase().indexOf(term.toLocaleLowerCase()) : -1;
  if (at === -1) return <>{phrase}</>;
  return (
    <>
      {phrase.slice(0, at)}
      <mark>{phrase.slice(at, at + term.length)}</mark>
      <HighlightedPhrase phrase={phrase.slice(at + term.length)} term={term} />
    </>
  );
}
