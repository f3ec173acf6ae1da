import type { ProductKind } from "./kind";

/**
 * One flat drawing per product kind (app/catalog/kind.ts), on a 600x600
 * canvas, the product between y=150 and y=510. Each is a few shapes in the
 * product's colour (Palette.body) so that a built-in grill head, a grill on a
 * cart, a grill cover and a cart cover read differently at phone size.
 * Server-only: the image route draws them; nothing of this reaches the browser.
 */
export interface Palette {
  /** The product's colour, or the kind's usual one (steel for stainless appliances). */
  body: string;
  /** A darker and a lighter shade of body, for depth. */
  shade: string;
  light: string;
  /** A coloured part (control panel, lid) when the catalogue names one; else body. */
  part: string;
}

export const STEEL = "#c3c9d1";
export const STEEL_DARK = "#8a939e";
export const INK = "#2f343b";
export const SLATE = "#55595f";
const WOOD = "#8a5a2b";
const STONE = "#c9b89c";
const STONE_DARK = "#a8977b";
const FLAME = "#f39c12";
const FLAME_CORE = "#f7dc6f";
const GLASS = "#a9cfe0";
const WATER = "#5dade2";

/** The colour a kind is drawn in when the catalogue gives none (stainless: steel). */
export const KIND_COLOURS: Partial<Record<ProductKind, string>> = {
  kamado: "#1f5f3f",
  kettle: "#202327",
  "pellet-grill": "#202327",
  "griddle-cart": "#202327",
  "pizza-oven": "#b5462f",
  "pizza-oven-cart": "#b5462f",
  "fire-pit": "#8e8a84",
  "fire-table": "#8e8a84",
  fireplace: "#d8cdbb",
  chaise: "#e3e6e9",
  chair: "#e3e6e9",
  "seating-set": "#e3e6e9",
  table: "#e3e6e9",
  "cover-grill-head": "#2a2d31",
  "cover-cart": "#2a2d31",
  "cover-kamado": "#2a2d31",
  "cover-pizza-oven": "#2a2d31",
  "cover-box": "#2a2d31",
  "cover-fire-pit": "#2a2d31",
  "cover-furniture": "#4b5d67",
  "heater-mounted": "#2f343b",
  remote: "#2f343b",
  bag: "#7a5230",
  cookware: "#2f343b",
  seasoning: "#c0392b",
};

const r = (x: number, y: number, w: number, h: number, fill: string, extra = "") =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}"${extra}/>`;
const c = (x: number, y: number, radius: number, fill: string, extra = "") => `<circle cx="${x}" cy="${y}" r="${radius}" fill="${fill}"${extra}/>`;
const p = (d: string, fill: string, extra = "") => `<path d="${d}" fill="${fill}"${extra}/>`;
const line = (d: string, stroke: string, width: number, extra = "") => `<path d="${d}" stroke="${stroke}" stroke-width="${width}" fill="none"${extra}/>`;

function knobs(count: number, y: number, from: number, to: number, fill = INK): string {
  let out = "";
  for (let i = 0; i < count; i += 1) out += c(Math.round(from + ((to - from) * i) / Math.max(count - 1, 1)), y, 9, fill);
  return out;
}
const wheels = (left = 190, right = 410, y = 500) => c(left, y, 14, INK) + c(right, y, 14, INK);
const flames = (x: number, y: number, w: number) =>
  p(`M${x} ${y}Q${x + w * 0.1} ${y - 40} ${x + w * 0.25} ${y - 20}Q${x + w * 0.35} ${y - 70} ${x + w * 0.5} ${y - 30}Q${x + w * 0.65} ${y - 80} ${x + w * 0.75} ${y - 24}Q${x + w * 0.9} ${y - 46} ${x + w} ${y}Z`, FLAME) +
  p(`M${x + w * 0.2} ${y}Q${x + w * 0.35} ${y - 34} ${x + w * 0.5} ${y - 12}Q${x + w * 0.65} ${y - 40} ${x + w * 0.8} ${y}Z`, FLAME_CORE);
/** A counter top on an island face of stone: what a built-in appliance drops into. */
const island = (top = 330, from = 70, to = 530) =>
  r(from, top, to - from, 18, "#e4dccd") + r(from + 10, top + 18, to - from - 20, 492 - top, STONE) +
  line(`M${from + 10} ${top + 70}H${to - 10}M${from + 10} ${top + 125}H${to - 10}M${from + 80} ${top + 18}V${top + 70}M${from + 230} ${top + 70}V${top + 125}M${to - 90} ${top + 18}V${top + 70}M${from + 150} ${top + 125}V492M${to - 160} ${top + 125}V492`, STONE_DARK, 3);
/** A hooded grill head whose bottom edge sits at y=bottom. */
const grillHead = (q: Palette, left: number, right: number, bottom: number) => {
  const mid = (left + right) / 2;
  return (
    p(`M${left} ${bottom - 60}V${bottom - 100}Q${left} ${bottom - 150} ${left + 52} ${bottom - 150}H${right - 52}Q${right} ${bottom - 150} ${right} ${bottom - 100}V${bottom - 60}Z`, q.body, ` stroke="${q.shade}" stroke-width="4"`) +
    r(mid - 70, bottom - 84, 140, 10, INK, ' rx="5"') + c(mid, bottom - 122, 11, "#fff", ` stroke="${INK}" stroke-width="3"`) +
    r(left - 10, bottom - 58, right - left + 20, 58, q.part, ' rx="4"') + knobs(5, bottom - 29, left + 30, right - 30)
  );
};

const DRAWINGS: Record<ProductKind, (q: Palette) => string> = {
  "grill-built-in": (q) => island(360) + grillHead(q, 170, 430, 362),
  "grill-cart": (q) =>
    r(88, 300, 80, 12, STEEL_DARK) + r(432, 300, 80, 12, STEEL_DARK) + grillHead(q, 160, 440, 342) +
    r(170, 342, 260, 146, q.shade, ' rx="6"') + r(182, 354, 114, 122, q.body, ' rx="4"') + r(304, 354, 114, 122, q.body, ' rx="4"') +
    r(280, 372, 6, 86, INK, ' rx="3"') + r(314, 372, 6, 86, INK, ' rx="3"') + wheels(),
  "grill-portable": (q) =>
    grillHead(q, 190, 410, 390) + line("M200 390L170 470M400 390L430 470M200 390L430 470M400 390L170 470", INK, 8) + r(150, 468, 300, 10, INK, ' rx="5"'),
  kettle: (q) =>
    line("M230 380L190 500M370 380L410 500M300 400V500", INK, 9) + c(300, 505, 12, INK) + c(190, 505, 12, INK) +
    p("M170 300A130 110 0 0 0 430 300Z", q.body) + p("M176 292A124 104 0 0 1 424 292Z", q.light) + r(160, 290, 280, 14, q.shade, ' rx="7"') +
    r(270, 180, 60, 14, INK, ' rx="7"') + r(292, 192, 16, 8, INK),
  kamado: (q) =>
    line("M225 420L190 505M375 420L410 505M300 440V505", INK, 10) + r(88, 352, 92, 12, WOOD, ' rx="4"') + r(420, 352, 92, 12, WOOD, ' rx="4"') +
    `<ellipse cx="300" cy="320" rx="122" ry="132" fill="${q.body}"/><ellipse cx="258" cy="270" rx="24" ry="52" fill="#fff" opacity=".18"/>` +
    line("M180 300Q300 332 420 300", INK, 9) + r(262, 312, 76, 12, WOOD, ' rx="6"') + r(280, 178, 40, 24, INK, ' rx="6"') + c(300, 244, 14, "#fff", ` stroke="${INK}" stroke-width="3"`),
  "pellet-grill": (q) =>
    line("M190 380L170 500M410 380L430 500", INK, 10) + wheels(170, 430) +
    p("M150 330V280Q150 220 210 220H390Q450 220 450 280V330Z", q.body) + r(150, 330, 300, 50, q.shade, ' rx="6"') +
    r(450, 250, 80, 110, q.shade, ' rx="6"') + r(462, 262, 56, 24, "#111", ' rx="3"') + r(330, 160, 24, 64, INK) + r(210, 262, 180, 10, INK, ' rx="5"'),
  "griddle-built-in": (q) =>
    island(360) + r(150, 300, 300, 60, q.part, ' rx="4"') + knobs(4, 330, 200, 400, STEEL) + r(140, 286, 320, 16, SLATE, ' rx="3"') +
    p("M150 286V230Q150 200 190 200H410Q450 200 450 230V286Z", q.body, ` stroke="${q.shade}" stroke-width="4" opacity=".9"`),
  "griddle-cart": (q) =>
    r(60, 268, 72, 10, STEEL_DARK) + r(468, 268, 72, 10, STEEL_DARK) + r(130, 258, 340, 22, SLATE, ' rx="3"') +
    r(140, 280, 320, 52, q.body, ' rx="4"') + knobs(4, 306, 200, 400, STEEL) + r(160, 332, 12, 160, INK) + r(428, 332, 12, 160, INK) +
    r(160, 450, 280, 10, STEEL_DARK) + wheels(),
  "pizza-oven": (q) =>
    island(420, 120, 480) + r(334, 150, 28, 86, SLATE) + p("M140 420Q140 222 300 212Q460 222 460 420Z", q.body) +
    p("M230 420V362Q230 310 300 310Q370 310 370 362V420Z", INK) + flames(250, 420, 100),
  "pizza-oven-cart": (q) =>
    r(150, 380, 300, 20, q.shade, ' rx="4"') + line("M170 400L160 490M430 400L440 490", INK, 10) + r(160, 450, 280, 8, INK) + wheels(160, 440) +
    r(334, 130, 28, 80, SLATE) + p("M150 380Q150 200 300 190Q450 200 450 380Z", q.body) + p("M240 380V330Q240 285 300 285Q360 285 360 330V380Z", INK) + flames(258, 380, 84),
  "side-burner": (q) =>
    island(360) + r(170, 300, 260, 62, q.part, ' rx="4"') + knobs(2, 332, 260, 340) + r(160, 282, 280, 18, SLATE, ' rx="3"') +
    `<ellipse cx="240" cy="282" rx="44" ry="10" fill="none" stroke="${FLAME}" stroke-width="6"/><ellipse cx="360" cy="282" rx="44" ry="10" fill="none" stroke="${FLAME}" stroke-width="6"/>` +
    p("M160 282L180 170H420L440 282", "none", ` stroke="${q.shade}" stroke-width="6"`),
  island: (q) =>
    r(40, 330, 520, 18, "#e4dccd") + r(50, 348, 500, 144, STONE) + r(90, 370, 90, 100, STEEL, ' rx="4"') + r(420, 370, 90, 100, STEEL, ' rx="4"') +
    r(240, 370, 120, 100, STEEL, ' rx="4"') + r(296, 380, 8, 80, INK) + grillHead(q, 200, 400, 330),
  "vent-hood": (q) =>
    r(255, 130, 90, 120, q.body, ` stroke="${q.shade}" stroke-width="3"`) + p("M120 400L200 250H400L480 400Z", q.body, ` stroke="${q.shade}" stroke-width="4"`) +
    r(110, 400, 380, 30, q.shade, ' rx="4"') + line("M160 455V490M230 455V490M300 455V490M370 455V490M440 455V490", "#b8c2cc", 5, ' opacity=".8"'),
  "heater-patio": (q) =>
    `<ellipse cx="300" cy="500" rx="82" ry="16" fill="${INK}"/>` + r(250, 468, 100, 32, SLATE, ' rx="6"') + r(292, 236, 16, 236, STEEL_DARK) +
    r(268, 200, 64, 52, STEEL, ' rx="8"') + r(278, 212, 44, 28, "#e74c3c") + p("M160 202L300 148L440 202Z", q.body) +
    line("M240 262q-14 18 0 36t0 36M360 262q14 18 0 36t0 36", FLAME, 5, ' opacity=".7"'),
  "heater-mounted": (q) =>
    r(120, 150, 360, 24, STEEL) + r(290, 174, 20, 60, STEEL_DARK) + r(110, 234, 380, 90, q.body, ' rx="10"') + r(110, 234, 380, 8, q.shade) +
    r(134, 258, 332, 44, "#e74c3c", ' rx="4"') + r(134, 272, 332, 14, FLAME) +
    line("M170 360q15 20 0 40t0 40M240 360q15 20 0 40t0 40M310 360q15 20 0 40t0 40M380 360q15 20 0 40t0 40M450 360q15 20 0 40t0 40", FLAME, 5, ' opacity=".7"'),
  "fire-pit": (q) =>
    flames(220, 360, 160) + p("M150 360Q160 470 300 474Q440 470 450 360Z", q.body) + `<ellipse cx="300" cy="360" rx="152" ry="22" fill="${q.shade}"/>` +
    `<ellipse cx="300" cy="358" rx="132" ry="14" fill="${INK}"/>` + `<ellipse cx="300" cy="500" rx="110" ry="10" fill="#000" opacity=".15"/>`,
  "fire-table": (q) =>
    flames(190, 330, 220) + r(100, 330, 400, 28, q.shade, ' rx="4"') + r(180, 334, 240, 14, INK, ' rx="6"') + r(120, 358, 360, 132, q.body, ' rx="4"') +
    line("M120 400H480", q.shade, 3, ' opacity=".6"'),
  fireplace: (q) =>
    r(250, 120, 100, 110, q.shade) + r(150, 220, 300, 280, q.body) + r(130, 220, 340, 26, q.shade) + r(140, 470, 320, 30, q.shade) +
    p("M210 470V360Q210 300 300 300Q390 300 390 360V470Z", INK) + flames(230, 470, 140),
  chaise: (q) =>
    r(120, 428, 10, 66, INK) + r(390, 428, 10, 66, INK) + r(250, 428, 10, 66, INK) + r(108, 418, 304, 12, INK, ' rx="4"') +
    p("M108 380H378L462 262Q474 250 486 262L498 276L412 418H108Z", q.body, ` stroke="${q.shade}" stroke-width="3"`) +
    `<ellipse cx="452" cy="292" rx="32" ry="16" fill="#fff" opacity=".85" transform="rotate(-52 452 292)"/>`,
  chair: (q) =>
    p("M200 200H400L390 360H210Z", q.body, ` stroke="${q.shade}" stroke-width="4"`) + line("M230 215V350M270 215V350M310 215V350M350 215V350", q.shade, 3) +
    r(170, 350, 260, 40, q.body, ` rx="6" stroke="${q.shade}" stroke-width="4"`) + r(150, 320, 40, 14, q.shade, ' rx="4"') + r(410, 320, 40, 14, q.shade, ' rx="4"') +
    r(180, 390, 16, 110, q.shade) + r(404, 390, 16, 110, q.shade),
  "seating-set": (q) =>
    `<ellipse cx="300" cy="420" rx="70" ry="20" fill="${q.shade}"/>` + r(290, 420, 20, 70, q.shade) + flames(270, 420, 60) +
    p("M70 250H180L175 380H75Z", q.body) + r(60, 370, 130, 30, q.body, ' rx="6"') + r(70, 400, 12, 90, q.shade) + r(168, 400, 12, 90, q.shade) +
    p("M420 250H530L525 380H425Z", q.body) + r(410, 370, 130, 30, q.body, ' rx="6"') + r(420, 400, 12, 90, q.shade) + r(518, 400, 12, 90, q.shade),
  table: (q) =>
    `<ellipse cx="300" cy="250" rx="140" ry="30" fill="${q.light}" stroke="${q.shade}" stroke-width="4"/>` +
    p("M170 262L190 480H410L430 262", q.body, ` stroke="${q.shade}" stroke-width="4"`) + `<ellipse cx="300" cy="482" rx="110" ry="16" fill="${q.shade}"/>`,
  "cover-grill-head": (q) =>
    island(410) + p("M130 412L148 290Q160 220 240 214H360Q440 220 452 290L470 412Z", q.body) +
    line("M220 290L206 410M300 280V410M380 290L394 410", q.light, 5) + r(262, 320, 76, 26, STEEL, ' rx="4"'),
  "cover-cart": (q) =>
    `<ellipse cx="300" cy="502" rx="170" ry="10" fill="#000" opacity=".12"/>` + p("M140 500L158 232Q168 182 230 176H370Q432 182 442 232L460 500Z", q.body) +
    line("M222 262L204 498M300 250V498M378 262L396 498", q.light, 5) + r(140, 478, 320, 22, q.shade) + r(262, 300, 76, 30, STEEL, ' rx="4"'),
  "cover-kamado": (q) =>
    `<ellipse cx="300" cy="500" rx="130" ry="10" fill="#000" opacity=".12"/>` + p("M190 500Q160 330 210 230Q250 160 300 160Q350 160 390 230Q440 330 410 500Z", q.body) +
    line("M250 200Q230 350 240 495M350 200Q370 350 360 495", q.light, 5) + r(270, 300, 60, 24, STEEL, ' rx="4"'),
  "cover-pizza-oven": (q) =>
    island(430, 110, 490) + p("M130 432Q130 250 300 236Q470 250 470 432Z", q.body) + line("M220 280Q210 360 214 430M380 280Q390 360 386 430", q.light, 5) +
    r(270, 330, 60, 24, STEEL, ' rx="4"'),
  "cover-box": (q) =>
    island(420, 110, 490) + p("M180 422L190 270Q194 250 214 250H386Q406 250 410 270L420 422Z", q.body) + line("M250 262V420M350 262V420", q.light, 5) +
    r(270, 320, 60, 22, STEEL, ' rx="4"'),
  "cover-fire-pit": (q) =>
    `<ellipse cx="300" cy="470" rx="200" ry="26" fill="#000" opacity=".12"/>` + p("M100 380Q110 330 300 320Q490 330 500 380L490 460Q300 480 110 460Z", q.body) +
    line("M110 400Q300 420 490 400", q.light, 5) + r(270, 352, 60, 20, STEEL, ' rx="4"'),
  "cover-furniture": (q) =>
    `<ellipse cx="300" cy="498" rx="200" ry="10" fill="#000" opacity=".12"/>` + p("M100 498L110 390H360L440 250Q460 230 480 252L500 300L470 498Z", q.body) +
    line("M180 400V496M280 400V496M400 330L420 496", q.light, 5) + r(200, 430, 60, 20, STEEL, ' rx="4"'),
  door: (q) =>
    r(110, 180, 380, 310, q.shade, ' rx="6"') + r(126, 196, 170, 278, q.body, ' rx="4"') + r(304, 196, 170, 278, q.body, ' rx="4"') +
    r(270, 260, 8, 150, INK, ' rx="4"') + r(322, 260, 8, 150, INK, ' rx="4"'),
  drawer: (q) =>
    r(150, 170, 300, 330, q.shade, ' rx="6"') + r(166, 186, 268, 94, q.body, ' rx="4"') + r(166, 290, 268, 94, q.body, ' rx="4"') +
    r(166, 394, 268, 94, q.body, ' rx="4"') + r(250, 222, 100, 10, INK, ' rx="5"') + r(250, 326, 100, 10, INK, ' rx="5"') + r(250, 430, 100, 10, INK, ' rx="5"'),
  cabinet: (q) =>
    r(128, 188, 344, 304, q.shade, ' rx="6"') + r(144, 204, 150, 272, q.body, ' rx="4"') + r(272, 250, 8, 180, INK, ' rx="4"') +
    r(308, 204, 148, 82, q.body, ' rx="4"') + r(308, 299, 148, 82, q.body, ' rx="4"') + r(308, 394, 148, 82, q.body, ' rx="4"') +
    r(342, 236, 80, 8, INK, ' rx="4"') + r(342, 331, 80, 8, INK, ' rx="4"') + r(342, 426, 80, 8, INK, ' rx="4"'),
  "trash-bin": (q) =>
    r(150, 380, 300, 110, q.body, ` rx="6" stroke="${q.shade}" stroke-width="4"`) + r(250, 420, 100, 10, INK, ' rx="5"') +
    p("M170 380L180 230H290L300 380Z", "#6b7b8c") + p("M300 380L310 230H420L430 380Z", "#3d8b5a") + r(165, 222, 140, 12, INK, ' rx="4"') + r(295, 222, 140, 12, INK, ' rx="4"'),
  "paper-towel": (q) =>
    r(170, 200, 260, 240, q.shade, ' rx="8"') + r(186, 216, 228, 208, q.body, ' rx="6"') + `<ellipse cx="300" cy="300" rx="90" ry="60" fill="#fff" stroke="#ddd" stroke-width="4"/>` +
    c(300, 300, 18, "#ddd") + p("M230 340H370V470H230Z", "#fff", ' stroke="#ddd" stroke-width="3"'),
  shelf: (q) =>
    r(140, 200, 16, 290, q.shade) + r(444, 200, 16, 290, q.shade) + r(140, 300, 320, 12, q.body) + r(140, 420, 320, 12, q.body) +
    r(180, 240, 40, 60, "#c0392b", ' rx="6"') + r(240, 250, 40, 50, "#d4ac0d", ' rx="6"') + r(300, 236, 40, 64, "#27ae60", ' rx="6"') +
    r(190, 360, 50, 60, "#8e44ad", ' rx="6"') + r(270, 370, 50, 50, "#e67e22", ' rx="6"'),
  cart: (q) =>
    r(100, 300, 400, 18, q.shade, ' rx="3"') + r(140, 318, 320, 170, q.body, ' rx="6"') + r(156, 334, 136, 140, q.light, ' rx="4"') +
    r(308, 334, 136, 140, q.light, ' rx="4"') + r(276, 370, 6, 70, INK, ' rx="3"') + r(318, 370, 6, 70, INK, ' rx="3"') + wheels(170, 430),
  refrigerator: (q) =>
    r(188, 168, 224, 324, q.body, ` rx="8" stroke="${q.shade}" stroke-width="4"`) + r(206, 186, 188, 250, q.light, ' rx="4"') +
    r(372, 210, 10, 200, INK, ' rx="5"') + r(200, 450, 200, 30, q.shade) + line("M220 465H380", INK, 3, ' stroke-dasharray="10 6"'),
  "glass-fridge": (q) => {
    let bottles = "";
    for (let i = 0; i < 5; i += 1) {
      const x = 226 + i * 30;
      bottles += r(x, 242, 16, 50, i % 2 === 0 ? "#7b241c" : "#d4ac0d", ' rx="5"') + r(x, 336, 16, 50, i % 2 === 1 ? "#7b241c" : "#1e8449", ' rx="5"');
    }
    return (
      r(188, 168, 224, 324, q.body, ` rx="8" stroke="${q.shade}" stroke-width="4"`) + r(208, 192, 172, 244, INK, ' rx="4"') +
      line("M212 300H376M212 396H376", STEEL_DARK, 4) + bottles + r(208, 192, 172, 244, GLASS, ' rx="4" opacity=".25"') +
      r(390, 200, 8, 228, INK, ' rx="4"') + r(200, 450, 200, 30, q.shade) + line("M220 465H380", INK, 3, ' stroke-dasharray="10 6"')
    );
  },
  kegerator: (q) =>
    r(180, 230, 240, 262, q.body, ` rx="8" stroke="${q.shade}" stroke-width="4"`) + r(198, 248, 204, 190, q.light, ' rx="4"') + r(380, 270, 10, 150, INK, ' rx="5"') +
    r(270, 160, 60, 70, STEEL, ' rx="6"') + r(240, 150, 120, 16, STEEL_DARK, ' rx="6"') + r(256, 118, 14, 40, INK, ' rx="5"') + r(330, 118, 14, 40, INK, ' rx="5"') + r(192, 450, 216, 30, q.shade),
  "ice-maker": (q) =>
    r(200, 170, 200, 322, q.body, ` rx="8" stroke="${q.shade}" stroke-width="4"`) + r(218, 188, 164, 150, q.light, ' rx="4"') + r(230, 200, 140, 10, INK, ' rx="5"') +
    r(218, 350, 164, 90, "#dff2fb", ' rx="4"') + r(236, 380, 28, 28, "#fff", ' stroke="#9bd" stroke-width="3"') + r(274, 372, 28, 28, "#fff", ' stroke="#9bd" stroke-width="3"') +
    r(312, 384, 28, 28, "#fff", ' stroke="#9bd" stroke-width="3"') + r(210, 450, 180, 30, q.shade),
  "ice-bin": (q) =>
    island(380) + p("M160 380L180 250H420L440 380Z", q.body, ` stroke="${q.shade}" stroke-width="4"`) + p("M190 300H410L420 370H180Z", "#dff2fb") +
    r(210, 320, 30, 30, "#fff", ' stroke="#9bd" stroke-width="3"') + r(260, 330, 30, 30, "#fff", ' stroke="#9bd" stroke-width="3"') + r(320, 318, 30, 30, "#fff", ' stroke="#9bd" stroke-width="3"') +
    r(176, 236, 248, 16, q.shade, ' rx="6"'),
  sink: (q) =>
    island(380) + p("M170 380L190 320H410L430 380Z", q.shade) + p("M200 372L212 330H388L400 372Z", q.light) + c(300, 356, 8, INK) +
    line("M300 320V200Q300 170 340 170H360V210", q.body, 16, ' stroke-linecap="round"') + r(280, 300, 40, 24, q.body, ' rx="6"') + line("M360 218V250", WATER, 6, ' stroke-dasharray="6 6"'),
  "bar-center": (q) =>
    island(380) + r(110, 340, 380, 42, q.body, ` rx="4" stroke="${q.shade}" stroke-width="4"`) + r(130, 348, 110, 26, q.light, ' rx="3"') + r(260, 348, 80, 26, "#dff2fb", ' rx="3"') +
    r(360, 348, 110, 26, q.light, ' rx="3"') + line("M180 340V260Q180 240 200 240H220", q.body, 10, ' stroke-linecap="round"') + r(380, 280, 16, 60, "#7b241c", ' rx="5"') +
    r(410, 270, 16, 70, "#1e8449", ' rx="5"') + r(440, 290, 16, 50, "#d4ac0d", ' rx="5"'),
  jacket: (q) =>
    p("M120 260L200 200H480L400 260Z", q.light) + p("M400 260L480 200V420L400 480Z", q.shade) + r(120, 260, 280, 220, q.body) + r(150, 290, 220, 130, INK, ' rx="4"') +
    line("M150 440H370", q.shade, 4),
  "trim-kit": (q) =>
    r(130, 190, 340, 300, q.body, ` rx="6" stroke="${q.shade}" stroke-width="4"`) + r(170, 230, 260, 220, "#e8e4dc", ' rx="4"') +
    line("M190 270H410M190 310H410M190 350H410M190 390H410M190 430H410", STEEL_DARK, 6, ' opacity=".5"'),
  "wind-guard": (q) =>
    p("M110 460V260L150 220H450L490 260V460H450V270H150V460Z", q.body, ` stroke="${q.shade}" stroke-width="4"`) + line("M190 240V270M250 240V270M310 240V270M370 240V270M430 240V270", q.shade, 3),
  rack: (q) => {
    let bars = "";
    for (let x = 150; x <= 450; x += 25) bars += `M${x} 250V430`;
    return r(130, 240, 340, 200, "none", ` rx="10" stroke="${q.body}" stroke-width="12"`) + line(bars, q.body, 7) + line("M130 340H470", q.shade, 6);
  },
  rotisserie: (q) =>
    r(90, 260, 70, 80, INK, ' rx="8"') + c(125, 300, 16, SLATE) + line("M160 300H510", q.body, 10, ' stroke-linecap="round"') +
    line("M240 270V330M262 270V330M420 270V330M442 270V330", q.shade, 8) + p("M280 300Q340 250 400 300Q340 350 280 300Z", "#b5651d") + r(500, 280, 30, 40, WOOD, ' rx="6"'),
  tool: (q) =>
    `<g transform="rotate(-38 300 330)">` + r(130, 300, 270, 14, q.body, ' rx="6"') + r(130, 326, 270, 14, q.body, ' rx="6"') + r(110, 296, 90, 48, INK, ' rx="12"') +
    line("M400 307q24 13 0 26", q.shade, 6) + `</g>` +
    `<g transform="rotate(38 300 330)">` + r(150, 420, 200, 12, q.body, ' rx="5"') + r(120, 412, 70, 28, INK, ' rx="10"') + r(350, 400, 90, 52, q.light, ` rx="6" stroke="${q.shade}" stroke-width="4"`) + `</g>`,
  cookware: (q) =>
    `<ellipse cx="280" cy="340" rx="170" ry="70" fill="${q.shade}"/><ellipse cx="280" cy="326" rx="150" ry="52" fill="${q.body}"/>` +
    `<ellipse cx="280" cy="330" rx="110" ry="34" fill="${q.light}" opacity=".35"/>` + line("M440 320L540 290", INK, 20, ' stroke-linecap="round"'),
  "smoker-box": (q) =>
    p("M140 300L200 260H460L400 300Z", q.light) + p("M400 300L460 260V400L400 440Z", q.shade) + r(140, 300, 260, 140, q.body) +
    c(190, 360, 8, INK) + c(230, 360, 8, INK) + c(270, 360, 8, INK) + c(310, 360, 8, INK) + c(350, 360, 8, INK) +
    line("M220 250q-20-30 0-60t0-60M300 250q-20-30 0-60t0-60M380 240q-20-30 0-60", "#9aa3ab", 8, ' opacity=".7" stroke-linecap="round"'),
  thermometer: (q) => {
    let ticks = "";
    for (let i = 0; i < 12; i += 1) {
      const a = (Math.PI * 2 * i) / 12;
      ticks += `M${Math.round(300 + Math.cos(a) * 92)} ${Math.round(320 + Math.sin(a) * 92)}L${Math.round(300 + Math.cos(a) * 108)} ${Math.round(320 + Math.sin(a) * 108)}`;
    }
    return (
      r(292, 430, 16, 80, STEEL_DARK, ' rx="4"') + c(300, 320, 130, q.body, ` stroke="${q.shade}" stroke-width="10"`) + c(300, 320, 116, "#fff") +
      line(ticks, INK, 5) + line("M300 320L360 260", "#c0392b", 8, ' stroke-linecap="round"') + c(300, 320, 12, INK)
    );
  },
  regulator: (q) =>
    line("M300 330C300 460 120 460 130 380S300 300 280 420S470 470 480 380", INK, 12) +
    p("M230 330Q230 230 300 230Q370 230 370 330Z", q.body, ` stroke="${q.shade}" stroke-width="4"`) + r(222, 322, 156, 24, q.shade, ' rx="6"') +
    r(270, 180, 60, 54, STEEL, ' rx="6"') + r(150, 196, 130, 22, STEEL_DARK, ' rx="6"') + r(470, 360, 50, 40, "#d4ac0d", ' rx="6"'),
  burner: (q) => {
    let holes = "";
    for (let x = 150; x <= 420; x += 30) holes += c(x, 318, 5, INK) + p(`M${x - 6} 304Q${x} 280 ${x + 6} 304Z`, FLAME);
    return r(120, 310, 340, 30, q.body, ` rx="15" stroke="${q.shade}" stroke-width="4"`) + holes + r(460, 300, 60, 50, q.shade, ' rx="8"') + r(520, 316, 40, 18, INK, ' rx="4"');
  },
  knob: (q) =>
    c(300, 330, 150, q.shade) + c(300, 330, 130, q.body) + c(300, 330, 96, q.light, ' opacity=".35"') + r(286, 200, 28, 110, INK, ' rx="14"') +
    line("M150 330H130M470 330H450M300 170V150", INK, 6),
  light: (q) =>
    line("M300 160V130M200 200L180 180M400 200L420 180M170 290H140M430 290H460", FLAME, 8, ' stroke-linecap="round"') +
    p("M230 290Q230 200 300 200Q370 200 370 290Q370 330 340 360V400H260V360Q230 330 230 290Z", FLAME_CORE, ` stroke="${q.shade}" stroke-width="6"`) +
    r(260, 400, 80, 20, q.body) + r(268, 420, 64, 20, q.shade) + r(280, 440, 40, 16, INK, ' rx="6"'),
  remote: (q) =>
    r(230, 160, 140, 340, q.body, ' rx="40"') + r(250, 190, 100, 60, "#5dade2", ' rx="8"') + c(300, 310, 28, "#c0392b") +
    c(262, 380, 16, SLATE) + c(338, 380, 16, SLATE) + c(262, 430, 16, SLATE) + c(338, 430, 16, SLATE),
  mount: (q) =>
    r(180, 150, 240, 30, q.shade, ' rx="4"') + r(288, 180, 24, 240, q.body) + r(210, 410, 180, 20, q.shade, ' rx="4"') +
    c(210, 165, 6, INK) + c(390, 165, 6, INK) + r(240, 430, 16, 40, STEEL_DARK) + r(344, 430, 16, 40, STEEL_DARK),
  bag: (q) =>
    p("M190 190Q300 170 410 190L440 490Q300 510 160 490Z", q.body) + p("M190 190Q300 220 410 190", "none", ` stroke="${q.shade}" stroke-width="8"`) +
    r(220, 300, 160, 110, "#f5efe0", ' rx="8"') + c(260, 350, 12, WOOD) + c(300, 340, 12, WOOD) + c(340, 356, 12, WOOD) + c(280, 376, 12, WOOD) + c(320, 380, 12, WOOD),
  part: (q) =>
    p("M140 420V250H300V300H460V420Z", q.body, ` stroke="${q.shade}" stroke-width="6"`) + c(190, 300, 16, "#fff") + c(190, 380, 16, "#fff") +
    c(340, 360, 16, "#fff") + c(410, 360, 16, "#fff") + r(170, 180, 40, 80, STEEL_DARK, ' rx="6"') + r(160, 172, 60, 16, INK, ' rx="4"'),
  seasoning: () =>
    r(214, 168, 172, 52, INK, ' rx="10"') + r(194, 214, 212, 282, "#c0392b", ' rx="30"') + r(206, 288, 188, 124, "#fff", ' rx="8"') +
    p("M300 318c-10-16-34-10-30 8c3 12 30 26 30 26s27-14 30-26c4-18-20-24-30-8z", "#c0392b") +
    `<text x="300" y="384" text-anchor="middle" font-size="32" font-weight="700" fill="${INK}">LOVE RUB</text>` +
    `<text x="300" y="404" text-anchor="middle" font-size="13" letter-spacing="2" fill="${SLATE}">BBQ SEASONING</text>`,
};

/** The product of a kind, drawn in a palette: SVG elements for the 600x600 canvas. */
export function drawKind(kind: ProductKind, palette: Palette): string {
  return DRAWINGS[kind](palette);
}
