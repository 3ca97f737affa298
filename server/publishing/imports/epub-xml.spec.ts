import { ContentDocument } from './epub-content';
import { MAX_METADATA, navTitles, packagePath, readPackage } from './epub-package';
import { MAX_NODES, parseXml, resolveHref, textOf, XmlCountExceeded, XmlRejected } from './epub-xml';

describe(resolveHref.name, () => {
  it('resolves against the folder of the referring file, with its fragment', () => {
    expect(resolveHref('OEBPS/smil/c1.smil', '../text/c1.xhtml#p%201')).toEqual({
      path: 'OEBPS/text/c1.xhtml',
      fragment: 'p 1',
    });
    expect(resolveHref('OEBPS/c1.xhtml', '#n2')).toEqual({ path: 'OEBPS/c1.xhtml', fragment: 'n2' });
    expect(resolveHref('OEBPS/c1.smil', 'audio/a%20b.mp3')).toEqual({
      path: 'OEBPS/audio/a b.mp3',
      fragment: '',
    });
  });

  it.each([
    '../../etc/passwd',
    '/etc/passwd',
    'file:///etc/passwd',
    'http://example.com/a.mp3',
    'data:audio/mp3,x',
    'a\\..\\..\\b',
    '%',
  ])('never follows %j outside the book', (href) => {
    expect(resolveHref('OEBPS/c1.smil', href)).toEqual({ outside: expect.stringContaining(href) });
  });
});

describe(parseXml.name, () => {
  it('refuses a document that declares entities, and never expands any but XML’s own', () => {
    expect(() => parseXml('<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>', 'x.xml')).toThrow(XmlRejected);
    const doc = parseXml('<x>&lt;b&gt; &amp; &unknown; <![CDATA[raw <i>]]></x>', 'x.xml');
    expect(textOf(doc)).toBe('<b> & &unknown; raw <i>');
  });

  it('refuses any DOCTYPE internal subset, and reads a document that merely mentions <!ENTITY', () => {
    expect(() => parseXml('<!DOCTYPE x [ ]><x/>', 'x.xml')).toThrow(XmlRejected);
    const doc = parseXml('<!DOCTYPE html><x><!-- no <!ENTITY here --><![CDATA[<!ENTITY>]]></x>', 'x.xml');
    expect(textOf(doc)).toBe('<!ENTITY>');
  });

  it('refuses a document of more than MAX_NODES nodes, and stops counting an element past its limit', () => {
    expect(() => parseXml(`<x>${'<b/>'.repeat(MAX_NODES + 1)}</x>`, 'big.xhtml')).toThrow(
      'big.xhtml has more than 200000 elements: the EPUB is refused.',
    );
    // Any case, any prefix: the local name is what counts.
    const smil = `<smil>${'<PAR/><smil:par/>'.repeat(2)}</smil>`;
    expect(() => parseXml(smil, 's.smil', { count: { name: 'par', max: 3 } })).toThrow(XmlCountExceeded);
  });
});

const OPF = `<?xml version="1.0"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
  <dc:title> Der   Turm </dc:title>
  <dc:creator id="a1">Anna</dc:creator>
  <dc:creator id="n1">Nora</dc:creator>
  <meta refines="#n1" property="role" scheme="marc:relators">nrt</meta>
  <dc:creator opf:role="aut">Bert</dc:creator>
  <dc:language>fr</dc:language>
  <meta name="cover" content="img"/>
</metadata>
<manifest>
  <item id="img" href="images/c.jpg" media-type="image/jpeg"/>
  <item id="t1" href="text/t1.xhtml" media-type="application/xhtml+xml" media-overlay="s1"/>
  <item id="s1" href="../../s1.smil" media-type="application/smil+xml"/>
  <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
</manifest>
<spine><itemref idref="nav"/><itemref idref="t1"/></spine>
</package>`;

describe(textOf.name, () => {
  it('reads elements nested far deeper than the call stack goes', () => {
    const depth = MAX_NODES - 10;
    const doc = parseXml(`<p>${'<b>'.repeat(depth)}deep${'</b>'.repeat(depth)}</p>`, 'deep.xhtml');
    expect(textOf(doc)).toBe('deep');
  });

  it('leaves out ruby readings, separates blocks, keeps no-break and ideographic spaces, and stops when asked', () => {
    const doc = parseXml(
      '<div><p>一<ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp></ruby>字</p><p>a&nbsp;b\u3000c</p></div>',
      'r.xhtml',
    );
    expect(textOf(doc)).toBe('一漢字 a\u00a0b\u3000c');
    const long = parseXml(`<p>${'word '.repeat(10_000)}</p>`, 'l.xhtml');
    expect(textOf(long, undefined, { maxChars: 2001 })).toHaveLength(2001);
    // An emoji where it stops is kept whole, so the text still reads as longer than 2000.
    const emoji = parseXml(`<p>${'a'.repeat(2000)}😀 more</p>`, 'e.xhtml');
    expect(textOf(emoji, undefined, { maxChars: 2001 })).toBe(`${'a'.repeat(2000)}😀`);
  });
});

describe(readPackage.name, () => {
  it('reads metadata, roles, the manifest, the spine, the EPUB 2 cover and the navigation', () => {
    expect(
      packagePath('<container><rootfiles><rootfile full-path="OEBPS/p.opf"/></rootfiles></container>'),
    ).toBe('OEBPS/p.opf');
    const pkg = readPackage(OPF, 'OEBPS/p.opf');
    expect(pkg.metadata).toEqual({
      title: 'Der Turm',
      creators: ['Anna', 'Bert'],
      narrators: ['Nora'],
      language: 'fr',
      description: null,
    });
    expect(pkg.spine).toEqual(['nav', 't1']);
    expect([pkg.coverId, pkg.navId]).toEqual(['img', 'nav']);
    expect(pkg.items.get('t1')).toMatchObject({ path: 'OEBPS/text/t1.xhtml', overlay: 's1' });
    expect(pkg.items.get('s1')).toMatchObject({
      path: null,
      outside: expect.stringMatching(/points outside the book/),
    });
  });

  it('reads at most MAX_METADATA creators and metas, each role found once (not per creator)', () => {
    const many = 20_000;
    const opf = `<package><metadata>${Array.from(
      { length: many },
      (_, i) => `<dc:creator id="c${i}">C${i}</dc:creator><meta refines="#c${i}" property="role">nrt</meta>`,
    ).join('')}</metadata></package>`;
    const started = Date.now();
    const pkg = readPackage(opf, 'p.opf');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(pkg.metadata.narrators).toEqual(Array.from({ length: MAX_METADATA }, (_, i) => `C${i}`));
    expect(pkg.metadata.creators).toEqual([]);
  });

  it('matches names composed (NFC) whichever way the href spells them', () => {
    expect(resolveHref('OEBPS/c.smil', 'Mu\u0308ller.mp3')).toEqual({
      path: 'OEBPS/Müller.mp3',
      fragment: '',
    });
  });

  it('takes chapter titles from the table of contents', () => {
    const nav = `<html><body><nav epub:type="landmarks"><a href="text/t1.xhtml">Start</a></nav>
      <nav epub:type="toc"><ol><li><a href="text/t1.xhtml#top"> Un <b>début</b></a></li></ol></nav></body></html>`;
    expect(navTitles(nav, 'OEBPS/nav.xhtml')).toEqual(new Map([['OEBPS/text/t1.xhtml', 'Un début']]));
  });
});

describe(ContentDocument.name, () => {
  it('reads a phrase without its note reference, and its footnote as glossary lines', () => {
    const doc = new ContentDocument(
      `<html xmlns:epub="http://www.idpf.org/2007/ops"><head><title>T</title></head><body><h1>Kapitel  1</h1>
      <p id="p1" class="phrase">Das <em>Meer</em>.<a epub:type="noteref" href="#n1">*</a></p>
      <aside id="n1" epub:type="footnote"><p><b>Meer</b> — sea</p><div><p>still</p><div>ruhig</div></div></aside>
      <p id="p2">Ohne<br/>Glossar</p></body></html>`,
      'OEBPS/t.xhtml',
    );
    expect(doc.title()).toBe('Kapitel 1');
    expect(doc.phrase(doc.byId('p1')!)).toEqual({
      phrase: 'Das Meer.',
      dictionary: 'Meer — sea\nstill\nruhig',
    });
    expect(doc.phrase(doc.byId('p2')!)).toEqual({ phrase: 'Ohne Glossar', dictionary: '' });
  });

  it('reads each footnote once, only footnotes and endnotes, and a glossary bomb no further than 5000 characters', () => {
    const refs = '<a epub:type="noteref" href="#n">*</a>'.repeat(2000);
    const doc = new ContentDocument(
      `<html><body><p id="p1">Eins${refs}</p><p id="p2">Zwei<a epub:type="noteref" href="#x">*</a></p>
      <aside id="n" epub:type="footnote">${'<p>Bedeutung</p>'.repeat(20_000)}</aside>
      <div id="x">not a note</div></body></html>`,
      'OEBPS/t.xhtml',
    );
    const started = Date.now();
    const { phrase, dictionary } = doc.phrase(doc.byId('p1')!);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(phrase).toBe('Eins');
    expect(dictionary.length).toBe(5001);
    expect(doc.phrase(doc.byId('p2')!)).toEqual({ phrase: 'Zwei', dictionary: '' });
  });
});
