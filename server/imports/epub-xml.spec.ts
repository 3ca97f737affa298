import { ContentDocument } from './epub-content';
import { navTitles, packagePath, readPackage } from './epub-package';
import { parseXml, resolveHref, textOf, XmlRejected } from './epub-xml';

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
    const depth = 200_000;
    const doc = parseXml(`<p>${'<b>'.repeat(depth)}deep${'</b>'.repeat(depth)}</p>`, 'deep.xhtml');
    expect(textOf(doc)).toBe('deep');
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
});
