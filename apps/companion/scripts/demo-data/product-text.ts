/** Derives shop copy from a raw gift-shop description: title, colour, categories, house brand and a sentence or two. */

/** FNV-1a: a stable, dependency-free hash, so every "random" choice is the same on every run. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with']);
const KEEP_UPPER = new Set(['LED', 'UK', 'USA', 'PHP', 'DIY', 'XL', 'ABC', 'N', 'S', 'OK']);

function capitalise(word: string): string {
  // Capitalise each part of "T-LIGHT" or "BLACK/BLUE", but not after an apostrophe ("Children's").
  return word.toLowerCase().replace(/(^|[-/(+&"])([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** "WHITE HANGING HEART T-LIGHT HOLDER" → "White Hanging Heart T-Light Holder"; sizes stay lower case ("60cm"). */
export function toTitleCase(raw: string): string {
  const words = raw.replace(/\s+/g, ' ').replace(/[ ,.]+$/, '').trim().split(' ');
  return words
    .map((word, index) => {
      if (KEEP_UPPER.has(word)) return word;
      if (/^\d/.test(word)) return word.toLowerCase();
      const lower = word.toLowerCase();
      if (index > 0 && SMALL_WORDS.has(lower)) return lower;
      return capitalise(word);
    })
    .join(' ');
}

/** Colour words that appear in the source, with a swatch for the generated photo. */
export const COLOURS: Record<string, string> = {
  Red: '#c0392b', Pink: '#e07a9a', Blue: '#2e6da4', Green: '#3c8d5a', White: '#e9e4da', Black: '#2b2b2b',
  Ivory: '#efe6cf', Cream: '#efe2c2', Yellow: '#e9c23f', Orange: '#e07b39', Purple: '#7d4e9e', Lilac: '#b59fd0',
  Gold: '#c9a23c', Silver: '#a9adb3', Brown: '#7a5236', Grey: '#8a8d91', Turquoise: '#2aa6a1', Amber: '#d48a1f',
};
const COLOUR_ALIASES: Record<string, string> = { GRAY: 'Grey', GREY: 'Grey', GOLDEN: 'Gold', SILVERED: 'Silver' };

function wordsOf(text: string): string[] {
  return text.toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean);
}

export function findColour(text: string): string | undefined {
  for (const word of wordsOf(text)) {
    if (COLOUR_ALIASES[word]) return COLOUR_ALIASES[word];
    const name = word.charAt(0) + word.slice(1).toLowerCase();
    if (COLOURS[name]) return name;
  }
  return undefined;
}

export function withoutColours(text: string): string {
  return text
    .split(' ')
    .filter((word) => findColour(word) === undefined)
    .join(' ')
    .replace(/^[/+&,-]\s*|\s*[/+&,-]$/g, '')
    .trim();
}

/** Keyword rules in priority order: a product takes the first two that match, else "Gifts". */
const CATEGORY_RULES: Array<[string, string[]]> = [
  ['Christmas', ['CHRISTMAS', 'XMAS', 'ADVENT', 'SANTA', 'REINDEER', 'SNOWFLAKE', 'BAUBLE', 'NATIVITY', 'SNOWMAN', 'ELF']],
  ['Candles & Lights', ['INCENSE', 'MATCHES', 'CANDLE', 'T-LIGHT', 'TLIGHT', 'TEA LIGHT', 'LANTERN', 'LIGHTS', 'LIGHT', 'LAMP', 'LED', 'NIGHTLIGHT']],
  ['Baking', ['CAKE', 'CAKES', 'CUPCAKE', 'BAKING', 'PETIT FOUR', 'CAKESTAND', 'COOKIE CUTTER', 'BAKE', 'MUFFIN', 'ICING']],
  ['Party', ['STRAWS', 'EASTER', 'PARTY', 'BUNTING', 'BALLOON', 'BANNER', 'PAPER PLATES', 'PAPER CUPS', 'PARTY BAG', 'INVITES', 'GARLAND', 'CONFETTI']],
  ['Kitchen & Dining', ['PANTRY', 'FOOD', 'PAN', 'FRIDGE', 'BREAD', 'JAM', 'DINNER', 'CHOPPING BOARD', 'MUG', 'CUP', 'TEACUP', 'SAUCER', 'PLATE', 'BOWL', 'JUG', 'TEAPOT', 'NAPKINS', 'NAPKIN', 'PLACEMAT', 'COASTER', 'TRAY', 'CUTLERY', 'KITCHEN', 'APRON', 'TEA TOWEL', 'LUNCH BOX', 'GLASS', 'EGG', 'SPOON', 'OVEN GLOVE', 'CHOPSTICKS', 'DISH', 'BEAKER', 'TUMBLER', 'PICNIC']],
  ['Bags', ['BAG', 'BAGS', 'HANDBAG', 'TOTE', 'SHOPPER', 'BACKPACK', 'RUCKSACK', 'SATCHEL']],
  ['Stationery & Cards', ['BOOK', 'SKETCHBOOK', 'STATIONERY', 'PAPERWEIGHT', 'CARD', 'CARDS', 'WRAP', 'NOTEBOOK', 'PEN', 'PENCIL', 'PENCILS', 'STICKER', 'STICKERS', 'ENVELOPE', 'TAPE', 'RIBBON', 'RIBBONS', 'JOURNAL', 'DIARY', 'CALENDAR', 'ERASER', 'RULER', 'NOTEPAD', 'PAPER', 'STAMP', 'TAG', 'TAGS']],
  ['Toys & Games', ['FELTCRAFT', 'CRAFT', 'BLOCK', 'BUILDING', 'TOY', 'TOYS', 'GAME', 'GAMES', 'PUZZLE', 'DOLL', 'DOLLY', 'DOMINOES', 'SKITTLES', 'JIGSAW', 'SPACEBOY', 'PLAYHOUSE', 'TEDDY', 'CHALK', 'SPINNING TOP', 'SOLDIER', 'KIT', 'CRAYONS', 'MAGIC', 'BINGO', 'CARD GAME', 'RUBBER']],
  ['Jewellery & Accessories', ['PASSPORT', 'BADGE', 'SLIPPER', 'FAN', 'SOCK', 'NECKLACE', 'NECKLACES', 'BRACELET', 'EARRINGS', 'RING', 'HAIR', 'CLIP', 'CLIPS', 'BROOCH', 'CHARM', 'PURSE', 'UMBRELLA', 'SLIPPERS', 'HAT', 'GLOVES', 'SCARF', 'KEY RING', 'KEYRING', 'BEADS', 'DIAMANTE', 'SUNGLASSES', 'WALLET']],
  ['Bath & Body', ['TISSUES', 'WARMER', 'WASHBAG', 'SOAP', 'BATH', 'TOWEL', 'COSMETIC', 'WASH BAG', 'SPONGE', 'TOILETRY', 'HOT WATER BOTTLE', 'LIP GLOSS', 'MAKE UP']],
  ['Garden', ['GARDEN', 'PLANT', 'PLANTER', 'WATERING', 'BIRD FEEDER', 'BIRD TABLE', 'BIRDHOUSE', 'GNOME', 'HERB', 'PARASOL', 'FLOWER POT', 'SEED', 'SEEDS', 'TROWEL', 'WINDMILL', 'FEEDER']],
  ['Storage', ['RACK', 'BIN', 'CONTAINER', 'TRINKET', 'COAT', 'BOX', 'BOXES', 'TIN', 'TINS', 'BASKET', 'JAR', 'DRAWER', 'STORAGE', 'CRATE', 'HOOK', 'HOOKS', 'HANGER', 'PEG', 'PEGS', 'CABINET', 'CASE', 'TRUNK', 'CHEST', 'BUCKET']],
  ['Home Décor', ['COVER', 'MAGNET', 'MAT', 'TILE', 'LETTERS', 'MOBILE', 'PICTURE', 'FRAME', 'CLOCK', 'CUSHION', 'SIGN', 'HEART', 'HEARTS', 'MIRROR', 'VASE', 'WALL', 'DOORSTOP', 'HANGING', 'ORNAMENT', 'PLAQUE', 'WREATH', 'DOORMAT', 'DECORATION', 'THROW', 'CURTAIN', 'BLANKET', 'QUILT', 'DOOR', 'CHANDELIER', 'FLOWERS', 'BELL', 'BELLS', 'LOVE', 'HOME', 'HOLDER', 'STAND']],
];

/** Whole words only, so RING never matches EARRINGS; a plural S or ES still counts. */
function matches(text: string, keyword: string): boolean {
  const haystack = ` ${wordsOf(text).join(' ')} `;
  const needle = wordsOf(keyword).join(' ');
  return [` ${needle} `, ` ${needle}S `, ` ${needle}ES `].some((form) => haystack.includes(form));
}

export function categoriesFor(title: string): string[] {
  const found = CATEGORY_RULES.filter(([, keywords]) => keywords.some((k) => matches(title, k))).map(([name]) => name);
  return found.length > 0 ? found.slice(0, 2) : ['Gifts'];
}

/**
 * House brands stand in for the brands the source lacks. Keyword families come first, in order;
 * anything else falls into one of two general lines by hash, so a product's brand never changes.
 */
const BRAND_RULES: Array<[string, string[]]> = [
  ['Vintage Christmas', ['CHRISTMAS', 'XMAS', 'ADVENT', 'SANTA', 'REINDEER', 'SNOWFLAKE', 'BAUBLE', 'NATIVITY', 'SNOWMAN']],
  ['Regency Tea Co.', ['REGENCY', 'TEA', 'TEACUP', 'TEAPOT', 'SAUCER', 'CAKESTAND', 'TEATIME', 'ROSES REGENCY']],
  ['Retrospot & Co.', ['RETROSPOT', 'POLKADOT', 'SPOTTY', 'SPOT', 'DOTS', 'DOTTY']],
  ['Little Spaceboy', ['SPACEBOY', 'DOLLY', 'CIRCUS', 'CHILDRENS', "CHILDREN'S", 'TOY', 'ALPHABET', 'DINOSAUR', 'KIDS', 'BABY']],
  ['Woodland Friends', ['WOODLAND', 'RABBIT', 'OWL', 'HEDGEHOG', 'FOX', 'DEER', 'BIRD', 'SQUIRREL', 'BIRDS', 'CAT', 'DOG']],
  ['Union Jack Originals', ['UNION', 'JACK', 'LONDON', 'BRITISH', 'ENGLISH', 'BRITANNIA']],
  ['Paris Atelier', ['PARIS', 'FRENCH', 'BELLE', 'JARDIN', 'CHIC', 'BAROQUE', 'VINTAGE', 'ANTIQUE']],
  ['Hanging Heart Home', ['HEART', 'HEARTS', 'LOVE', 'CUPID']],
  ['Lantern & Glow', ['CANDLE', 'T-LIGHT', 'TLIGHT', 'LANTERN', 'LIGHTS', 'LIGHT', 'LAMP']],
  ['Garden Party', ['GARDEN', 'FLOWER', 'FLOWERS', 'ROSE', 'ROSES', 'FLORAL', 'BLOSSOM', 'DAISY', 'STRAWBERRY']],
  ['Jumbo Bag Co.', ['BAG', 'BAGS', 'SHOPPER', 'TOTE', 'LUNCH']],
];
const GENERAL_BRANDS = ['Dotcom Home Studio', 'Gift Shop Originals'];
export const HOUSE_BRANDS = [...BRAND_RULES.map(([name]) => name), ...GENERAL_BRANDS];

export function brandFor(title: string, id: string): string {
  const rule = BRAND_RULES.find(([, keywords]) => keywords.some((k) => matches(title, k)));
  return rule ? rule[0] : GENERAL_BRANDS[stableHash(id) % GENERAL_BRANDS.length];
}

const SETTINGS: Record<string, string> = {
  Christmas: 'the festive season', 'Candles & Lights': 'cosy evenings', Baking: 'the next bake sale',
  Party: 'birthdays and celebrations', 'Kitchen & Dining': 'the kitchen table', Bags: 'days out and the weekly shop',
  'Stationery & Cards': 'the desk drawer', 'Toys & Games': 'the playroom', 'Jewellery & Accessories': 'everyday outfits',
  'Bath & Body': 'the bathroom shelf', Garden: 'the garden and patio', Storage: 'tidy shelves', 'Home Décor': 'any room',
  Gifts: 'friends and family',
};

function joinList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export interface DescribeInput {
  id: string;
  title: string;
  brand: string;
  category: string;
  /** Colours of a product family's variants, in order. */
  variantColours?: string[];
}

/** Two short sentences in one of three voices chosen by hash, so the catalog does not read as one template. */
export function describe({ id, title, brand, category, variantColours }: DescribeInput): string {
  const setting = SETTINGS[category] ?? SETTINGS.Gifts;
  const voices = [
    `${title} from ${brand}, made for ${setting}. A cheerful, easy gift.`,
    `A ${brand} favourite, the ${title} is just right for ${setting}.`,
    `Add a little charm to ${setting} with the ${title}. Part of our ${category} range.`,
  ];
  let text = voices[stableHash(id) % voices.length];
  const distinct = [...new Set(variantColours ?? [])];
  if (distinct.length > 1) text += ` Available in ${joinList(distinct.map((c) => c.toLowerCase()))}.`;
  return text;
}
