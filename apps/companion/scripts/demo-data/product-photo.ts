/**
 * Draws a product's photo: an illustration of what the title says it is (a mug, a bag, a candle, a
 * heart…), in the product's colour on its category's background, as a small SVG data URL, so the demo
 * needs no image files. No text and no fonts: resvg rasterises the same drawing to PNG for e-mails.
 */
import { COLOURS, stableHash } from './product-text.js';

/** Background tint and default object colour per category (the first category of a product). */
const PALETTES: Record<string, { background: string; object: string }> = {
  Bags: { background: '#f3e9dc', object: '#b5651d' },
  Baking: { background: '#fbeee6', object: '#d98a6c' },
  'Bath & Body': { background: '#e8f3f1', object: '#4a9c8c' },
  'Candles & Lights': { background: '#fdf3dc', object: '#d48a1f' },
  Christmas: { background: '#eaf2ea', object: '#b83a32' },
  Garden: { background: '#edf3e4', object: '#5d8f4a' },
  Gifts: { background: '#f6ecf2', object: '#a4507a' },
  'Home Décor': { background: '#f1ede7', object: '#8c6d52' },
  'Jewellery & Accessories': { background: '#f4eef8', object: '#7d4e9e' },
  'Kitchen & Dining': { background: '#e9f0f6', object: '#2e6da4' },
  Party: { background: '#fdf0e4', object: '#e07b39' },
  'Stationery & Cards': { background: '#eef0f7', object: '#5d6d9e' },
  Storage: { background: '#eef1f1', object: '#5d7d7e' },
  'Toys & Games': { background: '#fdf5dc', object: '#c9a23c' },
};
const FALLBACK = { background: '#f1f1ef', object: '#7b6d8d' };

type Draw = (c: string, d: string) => string;

/** Each shape in a 160×160 box, centred on (80, 84); `c` is the object's colour, `d` a darker shade of it. */
const SHAPES: Record<string, Draw> = {
  mug: (c, d) => `<rect x='42' y='50' width='62' height='70' rx='8' fill='${c}'/><path d='M104 64h10a14 14 0 0 1 0 28h-10' fill='none' stroke='${d}' stroke-width='8'/><rect x='42' y='50' width='62' height='10' fill='${d}'/>`,
  bag: (c, d) => `<path d='M58 62a22 22 0 0 1 44 0' fill='none' stroke='${d}' stroke-width='6'/><path d='M38 60h84l-8 64H46z' fill='${c}'/><path d='M38 60h84l-2 12H40z' fill='${d}'/>`,
  candle: (c, d) => `<rect x='58' y='62' width='44' height='62' rx='4' fill='${c}'/><ellipse cx='80' cy='62' rx='22' ry='6' fill='${d}'/><path d='M80 56c-6-8 0-18 0-22 4 6 8 12 0 22z' fill='#f0a500'/>`,
  lantern: (c, d) => `<path d='M66 40h28v10H66z' fill='${d}'/><path d='M60 50h40l4 66H56z' fill='${c}'/><rect x='70' y='66' width='20' height='36' rx='3' fill='#fbe7a1'/><path d='M70 40a10 10 0 0 1 20 0' fill='none' stroke='${d}' stroke-width='4'/>`,
  bottle: (c, d) => `<rect x='70' y='36' width='20' height='18' fill='${d}'/><rect x='50' y='52' width='60' height='74' rx='14' fill='${c}'/><path d='M56 70h48M56 80h48M56 90h48' stroke='${d}' stroke-width='3'/>`,
  box: (c, d) => `<rect x='40' y='66' width='80' height='58' rx='4' fill='${c}'/><rect x='36' y='54' width='88' height='16' rx='3' fill='${d}'/><rect x='72' y='84' width='16' height='6' rx='3' fill='${d}'/>`,
  jar: (c, d) => `<rect x='56' y='40' width='48' height='12' rx='3' fill='${d}'/><rect x='48' y='52' width='64' height='72' rx='12' fill='${c}'/><rect x='58' y='76' width='44' height='24' rx='3' fill='#fff' opacity='.7'/>`,
  cake: (c, d) => `<rect x='40' y='84' width='80' height='36' rx='4' fill='${c}'/><path d='M40 88q10 10 20 0t20 0 20 0 20 0v-8H40z' fill='#fff'/><rect x='52' y='60' width='56' height='26' rx='4' fill='${d}'/><circle cx='80' cy='52' r='7' fill='#c0392b'/>`,
  card: (c, d) => `<rect x='36' y='48' width='88' height='66' rx='4' fill='${c}'/><path d='M36 52l44 34 44-34' fill='none' stroke='${d}' stroke-width='5'/>`,
  notebook: (c, d) => `<rect x='48' y='36' width='68' height='92' rx='6' fill='${c}'/><rect x='48' y='36' width='14' height='92' rx='4' fill='${d}'/><rect x='72' y='56' width='34' height='12' rx='2' fill='#fff' opacity='.8'/>`,
  bunting: (c, d) => `<path d='M24 50q56 24 112 0' fill='none' stroke='${d}' stroke-width='3'/><path d='M32 54l12 36 12-31zM68 60l12 38 12-38zM104 59l12 31 12-36z' fill='${c}'/>`,
  clock: (c, d) => `<circle cx='80' cy='84' r='46' fill='${c}'/><circle cx='80' cy='84' r='36' fill='#fff'/><path d='M80 84V60M80 84l16 10' stroke='${d}' stroke-width='5' stroke-linecap='round'/>`,
  cushion: (c, d) => `<path d='M40 48q40 10 80 0q-10 36 0 72q-40-10-80 0q10-36 0-72z' fill='${c}'/><circle cx='80' cy='84' r='6' fill='${d}'/>`,
  frame: (c, d) => `<rect x='40' y='42' width='80' height='84' rx='3' fill='${c}'/><rect x='52' y='54' width='56' height='60' fill='#fff'/><path d='M56 108l16-22 12 14 8-8 14 16z' fill='${d}' opacity='.6'/>`,
  plate: (c, d) => `<circle cx='80' cy='84' r='46' fill='${c}'/><circle cx='80' cy='84' r='30' fill='${d}' opacity='.35'/>`,
  bowl: (c, d) => `<path d='M34 76h92a46 40 0 0 1-92 0z' fill='${c}'/><rect x='32' y='70' width='96' height='10' rx='5' fill='${d}'/>`,
  teapot: (c, d) => `<ellipse cx='80' cy='92' rx='40' ry='32' fill='${c}'/><path d='M120 84l18-16' stroke='${d}' stroke-width='8' stroke-linecap='round'/><path d='M40 80a16 16 0 0 0 0 26' fill='none' stroke='${d}' stroke-width='7'/><rect x='66' y='56' width='28' height='8' rx='4' fill='${d}'/>`,
  tree: (c, d) => `<path d='M80 30l34 48H94l26 34H40l26-34H46z' fill='${c}'/><rect x='72' y='112' width='16' height='16' fill='${d}'/>`,
  bird: (c, d) => `<path d='M40 96q0-34 40-34 20 0 30 12l18-2-14 12q0 30-40 30-34 0-34-18z' fill='${c}'/><path d='M62 88q18 18 36-4' fill='none' stroke='${d}' stroke-width='5'/><circle cx='104' cy='80' r='3' fill='#222'/>`,
  heart: (c) => `<path d='M80 124C40 96 30 76 38 60c8-16 30-18 42 0 12-18 34-16 42 0 8 16-2 36-42 64z' fill='${c}'/>`,
  star: (c) => `<path d='M80 32l14 32 34 3-26 22 8 34-30-18-30 18 8-34-26-22 34-3z' fill='${c}'/>`,
  flower: (c, d) => `<g fill='${c}'><circle cx='80' cy='58' r='18'/><circle cx='104' cy='76' r='18'/><circle cx='96' cy='104' r='18'/><circle cx='64' cy='104' r='18'/><circle cx='56' cy='76' r='18'/></g><circle cx='80' cy='84' r='13' fill='${d}'/>`,
  sign: (c, d) => `<rect x='30' y='56' width='100' height='56' rx='6' fill='${c}'/><path d='M46 76h68M46 92h48' stroke='#fff' stroke-width='6' stroke-linecap='round'/><path d='M62 56l18-18 18 18' fill='none' stroke='${d}' stroke-width='3'/>`,
  bauble: (c, d) => `<rect x='72' y='36' width='16' height='12' rx='2' fill='${d}'/><circle cx='80' cy='88' r='40' fill='${c}'/><path d='M44 80q36 16 72 0' fill='none' stroke='#fff' stroke-width='4' opacity='.7'/>`,
  hook: (c, d) => `<rect x='44' y='44' width='72' height='22' rx='6' fill='${c}'/><path d='M62 66v28a10 10 0 0 0 20 0M98 66v28a10 10 0 0 1-20 0' fill='none' stroke='${d}' stroke-width='6'/>`,
  pencil: (c, d) => `<path d='M44 122l8-28 56-56 20 20-56 56z' fill='${c}'/><path d='M44 122l8-28 20 20z' fill='#efd9b4'/><path d='M108 38l20 20' stroke='${d}' stroke-width='8'/>`,
  egg: (c, d) => `<path d='M80 36c26 0 40 40 40 58a40 36 0 0 1-80 0c0-18 14-58 40-58z' fill='${c}'/><path d='M44 96q12-10 24 0t24 0 24 0' fill='none' stroke='${d}' stroke-width='5'/>`,
  umbrella: (c, d) => `<path d='M30 84a50 46 0 0 1 100 0q-12-8-25 0-12-8-25 0-12-8-25 0-13-8-25 0z' fill='${c}'/><path d='M80 84v34a8 8 0 0 1-16 0' fill='none' stroke='${d}' stroke-width='5'/>`,
  necklace: (c, d) => `<path d='M40 44q40 84 80 0' fill='none' stroke='${d}' stroke-width='4'/><circle cx='80' cy='100' r='16' fill='${c}'/><circle cx='80' cy='100' r='6' fill='#fff' opacity='.6'/>`,
  gift: (c, d) => `<rect x='40' y='66' width='80' height='58' rx='4' fill='${c}'/><rect x='36' y='54' width='88' height='16' rx='3' fill='${c}'/><path d='M80 54v70M36 62h88' stroke='${d}' stroke-width='8'/><path d='M80 54c-20-20-30-4-16 0M80 54c20-20 30-4 16 0' fill='none' stroke='${d}' stroke-width='5'/>`,
};

/** Title words (checked in this order: the object before its motif) → shape. "Heart T-light holder" is a candle holder, not a heart. */
const KINDS: Array<[string, readonly string[]]> = [
  ['mug', ['MUG', 'MUGS', 'CUP', 'CUPS', 'TEACUP', 'BEAKER']],
  ['teapot', ['TEAPOT', 'KETTLE']],
  ['bottle', ['BOTTLE', 'BOTTLES', 'FLASK']],
  ['bag', ['BAG', 'BAGS', 'TOTE', 'SHOPPER', 'PURSE', 'RUCKSACK', 'HANDBAG']],
  ['jar', ['JAR', 'JARS', 'POT', 'POTS', 'CANISTER']],
  ['box', ['BOX', 'BOXES', 'TIN', 'TINS', 'DRAWER', 'CASE', 'CASES', 'CHEST', 'BASKET', 'CABINET', 'HAMPER', 'CRATE']],
  ['cake', ['CAKE', 'CAKES', 'CAKESTAND', 'CUPCAKE', 'MUFFIN']],
  ['lantern', ['LANTERN', 'LANTERNS', 'LAMP']],
  ['candle', ['CANDLE', 'CANDLES', 'T-LIGHT', 'TLIGHT', 'T', 'NIGHTLIGHT', 'LIGHTS', 'LIGHT', 'CANDLEHOLDER']],
  ['clock', ['CLOCK', 'ALARM', 'TIMER']],
  ['cushion', ['CUSHION', 'PILLOW', 'COVER', 'BLANKET', 'THROW', 'WARMER']],
  ['frame', ['FRAME', 'MIRROR', 'PHOTO', 'PICTURE', 'ART']],
  ['umbrella', ['UMBRELLA', 'PARASOL']],
  ['plate', ['PLATE', 'PLATES', 'SAUCER', 'TRAY', 'COASTER', 'COASTERS', 'PLACEMATS', 'NAPKINS', 'CUTLERY', 'SPOON', 'SPOONS']],
  ['bowl', ['BOWL', 'BOWLS', 'DISH', 'COLANDER']],
  ['notebook', ['NOTEBOOK', 'BOOK', 'JOURNAL', 'DIARY', 'ALBUM', 'CALENDAR']],
  ['card', ['CARD', 'CARDS', 'TAG', 'LABEL', 'WRAP', 'PAPER', 'ENVELOPE', 'ENVELOPES', 'STICKERS', 'TISSUES', 'TAGS', 'NAPKIN']],
  ['pencil', ['PENCIL', 'PENCILS', 'PEN', 'PENS', 'CRAYONS', 'RULER', 'ERASER']],
  ['bunting', ['BUNTING', 'GARLAND', 'BANNER', 'FLAG', 'FLAGS', 'STRING']],
  ['sign', ['SIGN', 'DOORMAT', 'MAT', 'PLAQUE', 'TILE', 'BOARD', 'CHALKBOARD', 'MAGNET', 'MAGNETS']],
  ['hook', ['HOOK', 'HOOKS', 'KNOB', 'KNOBS', 'HANGER', 'HANGERS', 'PEG', 'PEGS', 'RACK']],
  ['necklace', ['NECKLACE', 'BRACELET', 'EARRINGS', 'RING', 'BROOCH', 'CHARM', 'HAIRCLIP', 'HAIR', 'BEADS', 'JEWELLERY']],
  ['bird', ['BIRD', 'BIRDS', 'OWL', 'ROBIN', 'HEN', 'CHICK', 'DUCK']],
  ['bauble', ['BAUBLE', 'BAUBLES', 'DECORATION', 'ORNAMENT', 'BELL', 'BELLS']],
  ['tree', ['TREE', 'TREES', 'CHRISTMAS', 'XMAS']],
  ['egg', ['EGG', 'EGGS', 'EASTER']],
  ['flower', ['FLOWER', 'FLOWERS', 'ROSE', 'ROSES', 'DAISY', 'FLORAL', 'BLOSSOM', 'TULIP', 'BUTTERFLY']],
  ['heart', ['HEART', 'HEARTS', 'LOVE', 'SWEETHEART', 'CUPID']],
  ['star', ['STAR', 'STARS', 'SNOWFLAKE', 'SPARKLE']],
];
const KIND_OF_WORD = new Map<string, number>();
KINDS.forEach(([, words], rank) => words.forEach((word) => KIND_OF_WORD.set(word, rank)));

/** The kind of thing the title names: the highest-ranked word of the title, else a gift box. */
export function productKind(title: string): string {
  let best = KINDS.length;
  for (const word of title.toUpperCase().split(/[^A-Z-]+/)) best = Math.min(best, KIND_OF_WORD.get(word) ?? KINDS.length);
  return KINDS[best]?.[0] ?? 'gift';
}

function darker(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => Math.round(((n >> shift) & 255) * 0.62).toString(16).padStart(2, '0');
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

/** White spots for spotty ranges (retrospot, polkadot…), drawn over the object's middle. */
function pattern(title: string): string {
  if (!/SPOT|POLKADOT|DOTS|DOTTY/i.test(title)) return '';
  return `<g fill='#fff' opacity='.8'>${[[64, 80], [92, 74], [78, 100], [100, 102], [58, 108]].map(([x, y]) => `<circle cx='${x}' cy='${y}' r='4'/>`).join('')}</g>`;
}

export function photoFor(title: string, category: string, colour: string | undefined): string {
  const palette = PALETTES[category] ?? FALLBACK;
  // A pale product colour would vanish on the pale background: it keeps the category's colour as its shade.
  const swatch = colour === undefined ? undefined : COLOURS[colour];
  const fill = swatch ?? palette.object;
  const shade = swatch !== undefined && isLight(swatch) ? palette.object : darker(fill);
  // A little tilt and offset per product, so a row of one kind of thing is not seven identical tiles.
  const hash = stableHash(title);
  const turn = (hash % 13) - 6;
  const shift = ((hash >>> 8) % 11) - 5;
  const svg =
    `<svg xmlns='http://www.w3.org/2000/svg' width='160' height='160' viewBox='0 0 160 160'>` +
    `<rect width='160' height='160' fill='${palette.background}'/>` +
    `<ellipse cx='80' cy='136' rx='48' ry='6' fill='#000' opacity='.08'/>` +
    `<g transform='translate(${shift} 0) rotate(${turn} 80 84)'${swatch !== undefined && isLight(swatch) ? ` stroke='${shade}' stroke-width='2'` : ''}>${SHAPES[productKind(title)]!(fill, shade)}${pattern(title)}</g></svg>`;
  // Only the characters a data URL cannot carry raw are escaped, which keeps each photo near 700 bytes.
  return `data:image/svg+xml,${svg.replace(/%/g, '%25').replace(/#/g, '%23').replace(/</g, '%3C').replace(/>/g, '%3E').replace(/"/g, '%22')}`;
}

function isLight(hex: string): boolean {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255) > 200;
}
