/**
 * Reading poppler's answers about a caller's PDF (pdfinfo, pdffonts, pdfsig): each ran in its own process
 * under the tools' limits; this reads their text.
 */

/** pdfinfo's "Key: value" lines. */
export function infoFields(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const m = /^([^:]+):\s*(.*)$/.exec(line);
    if (m && !out.has(m[1] ?? '')) out.set(m[1] ?? '', m[2] ?? '');
  }
  return out;
}

export interface PageSize {
  width_pt: number;
  height_pt: number;
  rotation: number;
}

/** `pdfinfo -f 1 -l N`'s "Page n size" and "Page n rot" lines, in page order. */
export function pageSizes(stdout: string): PageSize[] {
  const sizes = new Map<number, PageSize>();
  for (const m of stdout.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm))
    sizes.set(Number(m[1]), { width_pt: Number(m[2]), height_pt: Number(m[3]), rotation: 0 });
  for (const m of stdout.matchAll(/^Page\s+(\d+) rot:\s+(\d+)/gm)) {
    const size = sizes.get(Number(m[1]));
    if (size) size.rotation = Number(m[2]) % 360;
  }
  return [...sizes.entries()].sort(([a], [b]) => a - b).map(([, size]) => size);
}

/** An ISO date of `pdfinfo -isodates`, normalised (null when absent or unreadable). */
export function isoDate(text: string | undefined): string | null {
  if (!text) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

export interface FontInfo {
  name: string;
  embedded: boolean;
}

/**
 * pdffonts' table: the column widths are those of its dashed line (names may hold spaces). A font used
 * on several pages is listed once.
 */
export function fontsOf(stdout: string): FontInfo[] {
  const lines = stdout.split('\n');
  const dashes = lines[1] ?? '';
  const columns = [...dashes.matchAll(/-+/g)].map((m) => ({
    from: m.index ?? 0,
    to: (m.index ?? 0) + m[0].length,
  }));
  const name = columns[0];
  const emb = columns[3];
  if (!name || !emb) return [];
  const out = new Map<string, FontInfo>();
  for (const line of lines.slice(2)) {
    if (line.trim() === '') continue;
    const fontName = line
      .slice(name.from, name.to)
      .trim()
      .replace(/^[A-Z]{6}\+/, '');
    const embedded = line.slice(emb.from, emb.to + 1).trim() === 'yes';
    const key = `${fontName}\u0000${embedded}`;
    if (!out.has(key)) out.set(key, { name: fontName, embedded });
  }
  return [...out.values()];
}

export interface SignatureInfo {
  field: string;
  signer: string | null;
  signed_at: string | null;
  reason: string | null;
  covers_whole_document: boolean;
  valid: boolean;
}

/** `pdfsig -nocert`'s "Signature #n" blocks (no block: no signatures). */
export function signaturesOf(stdout: string, reasons: Map<string, string | null>): SignatureInfo[] {
  const blocks = stdout.split(/^Signature #\d+:\s*$/m).slice(1);
  return blocks.map((block) => {
    const value = (label: string) =>
      new RegExp(`^\\s*- ${label}: (.*)$`, 'm').exec(block)?.[1]?.trim() ?? null;
    const field = value('Signature Field Name') ?? '';
    const validation = value('Signature Validation') ?? '';
    return {
      field,
      signer: value('Signer Certificate Common Name'),
      signed_at: isoDate(value('Signing Time') ?? undefined),
      reason: reasons.get(field) ?? null,
      covers_whole_document: /^\s*- Total document signed\s*$/m.test(block),
      valid: /signature is valid/i.test(validation),
    };
  });
}

/** The XMP's `part`/`conformance` of a namespace prefix, as attribute or element. */
function xmpValue(xmp: string, name: string): string | null {
  const attribute = new RegExp(`${name}\\s*=\\s*["']([^"']*)["']`).exec(xmp);
  if (attribute) return attribute[1] ?? null;
  return new RegExp(`<${name}>\\s*([^<]*?)\\s*</${name}>`).exec(xmp)?.[1] ?? null;
}

/** PDF/A and PDF/UA as the XMP identifies them. */
export function conformanceOf(xmp: string): {
  pdf_a: { part: number; conformance: string | null } | null;
  pdf_ua: { part: number } | null;
  language: string | null;
} {
  const aPart = xmpValue(xmp, 'pdfaid:part');
  const conformance = xmpValue(xmp, 'pdfaid:conformance');
  const uaPart = xmpValue(xmp, 'pdfuaid:part');
  const language = /<dc:language>[\s\S]*?<rdf:li[^>]*>([^<]*)<\/rdf:li>/.exec(xmp)?.[1] ?? null;
  return {
    pdf_a:
      aPart && /^\d+$/.test(aPart)
        ? { part: Number(aPart), conformance: conformance?.toLowerCase() ?? null }
        : null,
    pdf_ua: uaPart && /^\d+$/.test(uaPart) ? { part: Number(uaPart) } : null,
    language,
  };
}

/** `pdftotext`'s output, one string per page (pages end with a form feed). */
export function pagesText(stdout: string, pages: number): string[] {
  const parts = stdout.split('\f');
  return Array.from({ length: pages }, (_, i) => parts[i] ?? '');
}
