/**
 * Hidden markers regreen leaves in the text it writes on GitHub (PR bodies,
 * comments), so later runs find their own work without a database:
 * `<!-- regreen:kind fingerprint=abc attempts=2 -->`.
 */
export type MarkerKind = 'pr' | 'diagnosis' | 'progress';

export interface Marker {
  readonly kind: MarkerKind;
  readonly fingerprint: string;
  readonly attempts: number;
}

export const renderMarker = (marker: Marker): string =>
  `<!-- regreen:${marker.kind} fingerprint=${marker.fingerprint} attempts=${marker.attempts} -->`;

export const parseMarker = (text: string | null | undefined): Marker | undefined => {
  const match =
    /<!-- regreen:(pr|diagnosis|progress) fingerprint=([0-9a-f]{6,64}) attempts=(\d+) -->/.exec(
      text ?? '',
    );
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  return { kind: match[1] as MarkerKind, fingerprint: match[2], attempts: Number(match[3]) };
};

/** Replaces (or appends) the marker of a text. */
export const withMarker = (text: string, marker: Marker): string =>
  `${text.replace(/(?<!\n)\n*<!-- regreen:[^>]*-->\s*$/, '').trimEnd()}\n\n${renderMarker(marker)}\n`;
