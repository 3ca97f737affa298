import { htmlToText, looksLikeHtml, plainText, withinLimit } from './safe-text';

describe('htmlToText', () => {
  it('drops tags and turns line-making elements into line breaks', () => {
    expect(htmlToText('<p><b>house</b>, <i>home</i></p><p>building</p>')).toBe('house, home\nbuilding');
    expect(htmlToText('one<br>two<br/>three')).toBe('one\ntwo\nthree');
    expect(htmlToText('<ol><li>first</li><li>second</li></ol>')).toBe('first\nsecond');
  });

  it('decodes named and numeric entities', () => {
    expect(htmlToText('caf&eacute; &amp; t&#233; &#x2014; &lt;b&gt; &nbsp;x')).toBe('café & té — <b> x');
  });

  it('drops what scripts, styles and comments hold, and attributes', () => {
    expect(
      htmlToText(
        '<style>p{color:red}</style>a<script>alert("x")</script><!-- note -->b<img src=x onerror=alert(1)>c',
      ),
    ).toBe('abc');
    expect(htmlToText('<a href="javascript:alert(1)" title="a>b">link</a>')).toBe('link');
  });

  it('collapses the source’s spaces and line breaks, as a browser does', () => {
    expect(htmlToText('  a\n   b\t\tc  <div>  d  </div>')).toBe('a b c\nd');
  });
});

describe('plainText', () => {
  it('removes control characters and bidi overrides, keeps line breaks and emoji', () => {
    expect(plainText('a\u0000b\u0007c\u202Ed\r\ne 😀\uFEFF')).toBe('abcd\ne 😀');
  });
  it('collapses spaces per line and keeps at most one empty line', () => {
    expect(plainText('\n\n  one   two \n\n\n\n  three\t four  \n\n')).toBe('one two\n\nthree four');
  });
  it('removes a lone surrogate', () => {
    expect(plainText('a\uD800b')).toBe('ab');
  });
});

describe('looksLikeHtml and withinLimit', () => {
  it('tells HTML from text that only has angle brackets', () => {
    expect(looksLikeHtml('house<br>home')).toBe(true);
    expect(looksLikeHtml('fish &amp; chips')).toBe(true);
    expect(looksLikeHtml('from <prep>, 2 < 3')).toBe(false);
  });
  it('cuts a long definition and ends it with an ellipsis', () => {
    expect(withinLimit('abcdefghij', 5)).toBe('abcd…');
    expect(withinLimit('abc', 5)).toBe('abc');
  });
});
