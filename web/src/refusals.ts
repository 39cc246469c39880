/**
 * A refused command in the chosen language. The engine explains refusals in English with the
 * specifics (which plane, which island) and gives the same specifics as `params` (stable values).
 * In Spanish the toast says the whole refusal in Spanish from the code and its params; a refusal
 * without params (an older journal, another source) leads with a Spanish sentence for its code and
 * keeps the engine's words as the detail.
 */
import { hasKey, lang, planeList, t, tk } from './i18n.ts';

/** A refusal as the service sends it (server/games/game-module.ts CommandRejection). */
export interface Refusal {
  code: string;
  message: string;
  params?: Record<string, string | number>;
}

type Params = Record<string, string | number>;

const ES: Record<string, string> = {
  wrongPhase: 'no es la fase para esto (primero la carta japonesa, luego las acciones de los aviones).',
  actionsStarted: 'los aviones ya han empezado sus acciones: las acciones no se pueden cambiar hasta el próximo turno.',
  actionsNotChosen: 'todos los aviones eligen su acción antes de que ninguno actúe.',
  alreadyActed: 'este avión ya ha hecho su acción este turno.',
  wrongAction: 'este avión eligió otra acción este turno.',
  notOnDeck: 'el avión no está en la cubierta: puede aterrizar, no despegar.',
  flightDeckFull: 'la cubierta está llena: solo dos despegues o aterrizajes por turno.',
  notRedIsland: 'al despegar se vuela a la zona de aproximación o a una isla roja.',
  notInApproach: 'se aterriza desde la zona de aproximación.',
  noEmergencyLanding: 'el aterrizaje de emergencia se hace justo después de llegar a la zona de aproximación sin combustible.',
  onDeck: 'el avión está en la cubierta: primero tiene que despegar.',
  badMove: 'ese movimiento no es posible.',
  wayBlocked: 'todas las rutas de vuelta pasan por islas con aviones japoneses.',
  notJoined: 'ninguna línea blanca une esas casillas.',
  viaOccupied: 'un movimiento de dos islas no puede sobrevolar aviones japoneses.',
  notOrange: 'hace falta estar en una isla naranja.',
  noWeatherToken: 'no hay ninguna ficha meteorológica boca abajo aquí.',
  notLocated: 'el Shōhō aún no ha sido localizado.',
  noTargets: 'no hay nada que atacar aquí.',
  noBomb: 'solo se puede atacar al Shōhō con una bomba.',
  noLightningAttack: 'el ataque relámpago se hace justo después de entrar en una casilla con aviones japoneses.',
  noLoad: 'el avión no lleva ni bomba ni tanque externo.',
  noDropTank: 'el avión no lleva tanque externo.',
  notTurnStart: 'el tanque externo se usa al principio del turno del avión.',
  tooMuchFuel: 'el avión tiene demasiado combustible para usar el tanque externo.',
  notEnoughFuel: 'el avión no tiene combustible suficiente para esa acción.',
  noLoadTokens: 'todas las fichas de bomba o tanque externo están en uso.',
  noDice: 'el avión no tiene dados que tirar.',
  rollInProgress: 'hay una tirada en curso: lee los dados y confírmala primero.',
  noRoll: 'no hay ninguna tirada en curso.',
  diceUnread: 'la cámara no puede leer un dado de la bandeja (inclinado o tapado): los dados que se ven no son los de la mesa. Endereza o vuelve a tirar ese dado, o introduce los dados a mano, y confirma.',
  cardAlreadyDrawn: 'esa carta ya ha salido en este mazo: está en la pila de descartes. Comprueba el número de la carta.',
  noReading: 'tira los dados primero: aún no se ha leído ninguno.',
  readingFlagged: 'la última lectura no se aceptó: enseña los dados otra vez.',
  badAssign: 'esos dados no pueden derribar esos objetivos.',
  weatherNeeded: 'di qué ficha meteorológica se ha revelado.',
  weatherUsedUp: 'ya se han revelado todas las fichas de esa clase.',
  weatherMismatch: 'la ficha de esa isla es otra.',
  manoeuvreUsed: 'la ficha de maniobra experta ya se ha usado.',
  wrongManoeuvre: 'la ficha de este avión es otra.',
  manoeuvreUnknown: 'di qué ficha de maniobra ha girado el jugador.',
  manoeuvreNotHere: 'esa maniobra experta no sirve para esto.',
  noManoeuvres: 'la partida se juega sin la expansión de maniobras expertas.',
  noWeather: 'la partida se juega sin la expansión de eventos meteorológicos.',
  noDropTanks: 'la partida se juega sin la expansión de tanque externo.',
  planeDestroyed: 'ese avión ha sido destruido.',
  gameOver: 'la partida ha terminado: empieza una nueva.',
  noGame: 'no hay ninguna partida: empieza una nueva.',
  undoNotHere: 'no se puede deshacer.',
  cannotUndo: 'no se puede deshacer más (una partida nueva y el fin del tiempo no se deshacen).',
  undoMoved: 'no se ha deshecho nada: la jugada preguntada ya no es la última.',
  diceMoving: 'los dados aún se mueven: espera a que la cámara los lea y confirma después.',
  diceBeingRead: 'la cámara aún está leyendo los dados que se han movido: espera un momento y confirma después.',
  cameraProblem: 'la cámara no está leyendo: introduce los dados a mano.',
  trayMoving: 'los dados aún se mueven: espera a que se paren y vuelve a leer la bandeja.',
  trayNotRead: 'la cámara aún no ha leído los dados quietos: espera un momento o introdúcelos a mano.',
  diceDeciding: 'la cámara aún está decidiendo un dado: espera un momento y vuelve a leer la bandeja.',
  trayUnread: 'la cámara no puede leer un dado de la bandeja (inclinado o tapado): endereza o vuelve a tirar ese dado, o introduce los dados a mano.',
  trayEmpty: 'la cámara no ve dados en la bandeja: tíralos o introdúcelos a mano.',
  diceFromBefore: 'los dados de la bandeja son de antes de esta tirada (no se han movido desde que empezó): tíralos.',
  alreadyRead: 'la tirada ya muestra los dados de la bandeja.',
  timeUp: 'se ha acabado el tiempo de la partida: ya no se puede deshacer.',
  timeNotUp: 'aún queda tiempo: la partida solo termina por tiempo cuando se acaba el cronómetro (para rendirte, abandona la partida o empieza una nueva).',
  badUndo: 'deshacer necesita un número de órdenes de 1 o más.',
  pinRequired: 'hace falta el PIN de la mesa.',
  badPin: 'PIN incorrecto.',
  tooManyAttempts: 'demasiados PIN incorrectos: espera un minuto.',
  offline: 'no hay conexión con la mesa.',
  timeout: 'la mesa no ha respondido a tiempo.',
  network: 'no se ha podido hablar con la mesa.',
  noReply: 'la mesa no ha dado ninguna respuesta.',
  // dice photos (views/samples.ts)
  noSettledRead: 'la cámara aún no ha leído dados quietos: tira, deja que se paren y vuelve a intentarlo.',
  samplesOff: 'este servicio no guarda fotos de dados (se arrancó sin carpeta de fotos de dados).',
  holdGone: 'la mesa ya no guarda esa foto (guarda las 4 últimas durante 30 minutos): haz otra.',
  badSample: 'el servicio no acepta estas etiquetas.',
  badRequest: 'el servicio no acepta esta petición.',
  sampleNotSaved: 'la foto no se ha guardado.',
  noPhotos: 'aún no hay fotos guardadas: guarda unas cuantas primero.',
  visionUnavailable: 'el lector de dados no funciona en este servicio.',
  evaluationRunning: 'ya se están midiendo las fotos: espera a esa respuesta.',
  evaluationFailed: 'no se han podido medir las fotos.',
  sampleNotRemoved: 'la foto no se ha quitado.',
  archiveFailed: 'no se han podido juntar las fotos en un archivo.',
  // teaching the dice model (views/teach.ts)
  tooFewPhotos: 'hacen falta más fotos guardadas para enseñar.',
  teachingRunning: 'ya se está enseñando el modelo de dados: espera o páralo.',
  modelChanging: 'el modelo de dados está cambiando: vuelve a intentarlo en un momento.',
  noTaughtModel: 'no hay ningún modelo enseñado: enseña uno primero.',
  modelUnreadable: 'no se ha podido leer ese modelo: la cámara sigue con el de antes.',
  modelsOff: 'este servicio no cambia su modelo de dados.',
  // camera set-up (views/camera.ts)
  noCamera: 'esta mesa no tiene cámara: los dados se introducen a mano.',
  badCalibration: 'el servicio no acepta esa bandeja o zona de guardados.',
  noFrame: 'la cámara aún no ha enviado ninguna imagen.',
  noTray: 'no se ha encontrado la bandeja en la imagen: vacíala, ilumínala por igual y vuelve a intentarlo, o dibújala sobre la imagen.',
  storageFailed: 'no se ha podido guardar (la base de datos no acepta escrituras).',
  // statistics (views/stats.ts)
  badRange: 'esos días no son un periodo que el servicio acepte (el primero antes del último, 366 días como mucho).',
};


/** Where a plane is, from a refusal's `at` (and `island`): "la isla 7", "la zona de aproximación", "la cubierta del Yorktown". */
function place(p: Params): string | null {
  if (p.at === 'island') return p.island === undefined ? null : t('to_island', { n: p.island });
  if (p.at === 'approach') return t('to_approach');
  if (p.at === 'deck') return t('to_deck');
  return null;
}

/** Spanish infinitives for what a plane tries (`tried`). */
const VERB: Record<string, string> = {
  takeOff: 'despegar',
  land: 'aterrizar',
  move: 'moverse',
  search: 'buscar',
  attack: 'atacar',
  emergencyLanding: 'hacer un aterrizaje de emergencia',
};

/** What an expert manoeuvre tile is used for (`for`, server/games/yorktown1942/manoeuvres.ts). */
const TILE_FOR: Record<string, string> = {
  land: 'aterrizar',
  move: 'moverse',
  oneIslandMove: 'un movimiento de una isla',
  search: 'buscar',
  revealWeather: 'revelar una ficha meteorológica',
  attack: 'atacar',
  lightningAttack: 'un ataque relámpago',
};

const COLOUR: Record<string, string> = { red: 'roja', orange: 'naranja', green: 'verde' };

/** The CAP or the Shōhō as what is attacked (`target`). */
const ATTACKED: Record<string, string> = { cap: 'a la CAP', shoho: 'al Shōhō' };

/** What fuel is paid for (`for`, and `to` where a take-off flies). */
function paidFor(p: Params): string | null {
  switch (p.for) {
    case 'takeOff':
      return p.to === undefined ? null : `despegar hacia ${p.to === 'approach' ? t('to_approach') : t('to_island', { n: p.to })}`;
    case 'oneIslandMove':
      return 'un movimiento de una isla';
    case 'twoIslandMove':
      return 'un movimiento de dos islas';
    case 'returnMove':
      return 'la vuelta a la zona de aproximación';
    case 'search':
      return 'una búsqueda';
    case 'revealWeather':
      return 'revelar la ficha meteorológica';
    case 'attack':
      return 'un ataque';
    default:
      return null;
  }
}

const tile = (id: string | number): string => `«${tk(`man_${id}`)}»`;
const weather = (id: string | number): string => `«${tk(`weather_${id}`)}»`;

/** True when every key is among the params. */
function has(p: Params, ...keys: string[]): boolean {
  return keys.every((k) => p[k] !== undefined && p[k] !== '');
}

/**
 * The whole refusal in Spanish from its params (tú, as the rest of the page's Spanish speaks to the
 * player); null when the params lack what the sentence needs (the code's generic sentence is used then).
 */
const ES_WITH_PARAMS: Record<string, (p: Params) => string | null> = {
  actionsNotChosen: (p) => {
    if (!has(p, 'planes')) return null;
    const ids = String(p.planes).split(',').map(Number);
    const which = ids.length === 1 ? `falta la del ${planeList(ids)}` : `faltan las de los ${planeList(ids)}`;
    return `todos los aviones eligen su acción antes de que ninguno actúe: ${which}.`;
  },
  alreadyActed: (p) => (has(p, 'plane') ? `el avión ${p.plane} ya ha hecho su acción este turno.` : null),
  wrongAction: (p) =>
    has(p, 'plane', 'chose', 'tried') && VERB[p.tried!] && hasKey(`act_${p.chose}`)
      ? `el avión ${p.plane} eligió «${tk(`act_${p.chose}`)}»: no puede ${VERB[p.tried!]} este turno.`
      : null,
  manoeuvreUsed: (p) => {
    if (has(p, 'plane')) return `el avión ${p.plane} ya no tiene ficha de maniobra experta: cada ficha se usa una vez.`;
    if (has(p, 'manoeuvre')) return `la ficha ${tile(p.manoeuvre!)} ya se ha usado.`;
    return null;
  },
  wrongManoeuvre: (p) => (has(p, 'plane', 'manoeuvre') ? `la ficha del avión ${p.plane} no es ${tile(p.manoeuvre!)}.` : null),
  manoeuvreUnknown: (p) => (has(p, 'plane') ? `di qué ficha ha girado el avión ${p.plane}: las fichas se repartieron en la mesa.` : null),
  manoeuvreNotHere: (p) => {
    const use = TILE_FOR[String(p.for)];
    if (!use) return null;
    // the plane's own dealt tile is secret at the table: named by the plane, never by the tile
    if (has(p, 'plane')) return `la ficha del avión ${p.plane} no sirve para ${use}.`;
    if (has(p, 'manoeuvre')) return `la ficha ${tile(p.manoeuvre!)} no sirve para ${use}.`;
    return null;
  },
  flightDeckFull: (p) => {
    if (!has(p, 'plane', 'limit', 'tried') || !VERB[p.tried!]) return null;
    const fuel = p.fuel ? ` y ${p.fuel} de combustible` : '';
    const consequence = Number(p.losesTurn) ? ` y pierde su turno${fuel} (salta su acción)` : ' este turno';
    return `solo ${p.limit} aviones pueden despegar o aterrizar cada turno: el avión ${p.plane} no puede ${VERB[p.tried!]}${consequence}.`;
  },
  notOnDeck: (p) => {
    const where = place(p);
    return has(p, 'plane') && where ? `el avión ${p.plane} está en ${where}, no en la cubierta: puede aterrizar, no despegar.` : null;
  },
  noLoadTokens: (p) => (has(p, 'tokens') ? `las ${p.tokens} fichas de bomba o tanque externo están en uso.` : null),
  notRedIsland: (p) => (has(p, 'island') ? `al despegar se vuela a la zona de aproximación o a una isla roja; la isla ${p.island} no es roja.` : null),
  notInApproach: (p) => {
    const where = place(p);
    return has(p, 'plane') && where ? `el avión ${p.plane} está en ${where}: se aterriza desde la zona de aproximación.` : null;
  },
  noEmergencyLanding: (p) =>
    has(p, 'plane')
      ? `el aterrizaje de emergencia se hace justo después de un movimiento que acaba en la zona de aproximación sin combustible; el avión ${p.plane} no está en ese caso.`
      : null,
  noSuchIsland: (p) => (has(p, 'island') ? `no hay ninguna isla ${p.island} en el tablero.` : null),
  onDeck: (p) => (has(p, 'plane') ? `el avión ${p.plane} está en la cubierta: primero tiene que despegar.` : null),
  badMove: (p) => {
    const where = place(p);
    return has(p, 'plane') && where ? `el avión ${p.plane} ya está en ${where}.` : null;
  },
  wayBlocked: (p) =>
    has(p, 'plane', 'island')
      ? `el avión ${p.plane} no puede volver a la zona de aproximación: todas las rutas desde la isla ${p.island} pasan por islas con aviones japoneses.`
      : null,
  notJoined: (p) => {
    const from = place(p);
    return from && has(p, 'to') ? `ninguna línea blanca une ${from} con la isla ${p.to}.` : null;
  },
  viaOccupied: (p) => (has(p, 'island') ? `un movimiento de dos islas no puede sobrevolar aviones japoneses: la isla ${p.island} está ocupada.` : null),
  notOrange: (p) => {
    if (!has(p, 'plane')) return null;
    if (has(p, 'target')) return ATTACKED[p.target!] ? `el avión ${p.plane} tiene que estar en una isla naranja para atacar ${ATTACKED[p.target!]}.` : null;
    const where = place(p);
    if (!where) return null;
    const colour = p.colour !== undefined && COLOUR[p.colour] ? ` (${COLOUR[p.colour]})` : '';
    return `el avión ${p.plane} está en ${where}${colour}: para buscar el Shōhō hace falta una isla naranja.`;
  },
  noWeatherToken: (p) => {
    const where = place(p);
    return where ? `no hay ninguna ficha meteorológica boca abajo en ${where}.` : null;
  },
  notLocated: (p) =>
    has(p, 'target', 'locatedAt', 'search') && ATTACKED[p.target!]
      ? `el Shōhō aún no ha sido localizado: la búsqueda tiene que llegar a ${p.locatedAt} antes de atacar ${ATTACKED[p.target!]} (está en ${p.search}).`
      : null,
  noTargets: (p) => {
    if (p.target === 'cap') return 'no hay cazas en las casillas de la CAP.';
    const where = place(p);
    return where ? `no hay aviones japoneses que atacar en ${where}.` : null;
  },
  noBomb: (p) => (has(p, 'plane') ? `el avión ${p.plane} no lleva bomba: solo se puede atacar al Shōhō con una bomba.` : null),
  noLightningAttack: (p) =>
    has(p, 'plane')
      ? `el ataque relámpago se hace justo después de entrar en una casilla con aviones japoneses; el avión ${p.plane} no acaba de hacerlo.`
      : null,
  noLoad: (p) => (has(p, 'plane') ? `el avión ${p.plane} no lleva ni bomba ni tanque externo.` : null),
  noDropTank: (p) => (has(p, 'plane') ? `el avión ${p.plane} no lleva tanque externo.` : null),
  notTurnStart: (p) => (has(p, 'plane') ? `el tanque externo se usa al principio del turno del avión; el avión ${p.plane} ya ha actuado.` : null),
  tooMuchFuel: (p) =>
    has(p, 'plane', 'fuel', 'limit')
      ? `el avión ${p.plane} tiene ${p.fuel} de combustible: el tanque externo se usa con ${p.limit} de combustible o menos.`
      : null,
  notEnoughFuel: (p) => {
    const what = paidFor(p);
    if (!what || !has(p, 'plane', 'fuel', 'cost')) return null;
    let skipping = '';
    if (p.skipFuel !== undefined) {
      skipping = Number(p.fuel) < Number(p.skipFuel)
        ? ' Saltar su acción lo estrella: no le queda combustible para seguir en el aire.'
        : ` Saltar su acción cuesta ${p.skipFuel} de combustible.`;
    }
    return `el avión ${p.plane} solo tiene ${p.fuel} de combustible: ${what} cuesta ${p.cost}.${skipping}`;
  },
  noSuchPlane: (p) => (has(p, 'plane', 'planes') ? `no hay ningún avión ${p.plane}: los aviones van del 1 al ${p.planes}.` : null),
  planeDestroyed: (p) => (has(p, 'plane') ? `el avión ${p.plane} ha sido destruido y está fuera de la partida.` : null),
  noDice: (p) => (has(p, 'plane') ? `el avión ${p.plane} no tiene dados que tirar.` : null),
  gameOver: (p) => {
    if (p.result !== 'won' && p.result !== 'lost') return null;
    const cause = has(p, 'cause') && hasKey(`cause_${p.cause}`) ? tk(`cause_${p.cause}`).replace(/\.$/, '') : null;
    const how = p.result === 'won' ? 'victoria' : 'derrota';
    const why = cause ? `: ${cause.charAt(0).toLowerCase()}${cause.slice(1)}` : '';
    return `la partida ha terminado (${how}${why}): empieza una nueva.`;
  },
  rollInProgress: (p) =>
    has(p, 'purpose') && hasKey(`purpose_${p.purpose}`)
      ? `hay una tirada en curso (${tk(`purpose_${p.purpose}`)}): lee los dados y confírmala primero.`
      : null,
  cardAlreadyDrawn: (p) =>
    has(p, 'card') ? `la carta ${p.card} ya ha salido en este mazo: está en la pila de descartes. Comprueba el número de la carta.` : null,
  weatherNeeded: (p) => (has(p, 'island') ? `se ha girado la ficha de la isla ${p.island}: di qué ficha meteorológica es.` : null),
  weatherUsedUp: (p) => (has(p, 'limit', 'weather') ? `ya se han revelado las ${p.limit} fichas ${weather(p.weather!)}.` : null),
  weatherMismatch: (p) =>
    has(p, 'island', 'weather', 'told') ? `la ficha de la isla ${p.island} es ${weather(p.weather!)}, no ${weather(p.told!)}.` : null,
  undoMoved: (p) =>
    has(p, 'seq', 'last') ? `no se ha deshecho nada: la jugada preguntada (#${p.seq}) ya no es la última (lo es la #${p.last}).` : null,
  badPlayers: (p) => (has(p, 'min', 'max') ? `una partida tiene de ${p.min} a ${p.max} jugadores.` : null),
  badInexperienced: (p) => (has(p, 'max') ? `el número de jugadores inexpertos tiene que estar entre 0 y ${p.max}.` : null),
  badDifficulty: (p) =>
    has(p, 'difficulties', 'difficulty') ? `el cronómetro se pone a ${p.difficulties} minutos, no a ${p.difficulty}.` : null,
  badStartIsland: (p) =>
    has(p, 'island', 'reds') ? `los aviones empiezan en islas rojas (${p.reds}); la isla ${p.island} no es roja.` : null,
};

/** The refusal said wholly in Spanish with its specifics, or null (no params, or no sentence for them). */
function spanishWithParams(error: Refusal): string | null {
  const template = ES_WITH_PARAMS[error.code];
  if (!template || !error.params) return null;
  return template(error.params);
}

/**
 * No word from the table (client.ts): not a refusal, and the page's own English words (or the browser's)
 * are no detail to keep under the Spanish sentence.
 */
const CONNECTION_PROBLEMS = new Set(['offline', 'timeout', 'noReply', 'network']);

/**
 * A problem that is not a refused game command (the dice photos page): the service's own words; in
 * Spanish a Spanish sentence for its code first, with the service's words under it.
 */
export function problemText(error: { code: string; message: string }): { text: string; detail: string | null } {
  const es = lang() === 'es' ? ES[error.code] : undefined;
  if (es) return { text: es.charAt(0).toUpperCase() + es.slice(1), detail: CONNECTION_PROBLEMS.has(error.code) ? null : error.message };
  return { text: error.message, detail: null };
}

/** The service's words for a refusal, in the page's language when it has them (a wrong PIN on the PIN prompt). */
export function refusalWords(error: Refusal): string {
  if (lang() !== 'es') return error.message;
  return spanishWithParams(error) ?? ES[error.code] ?? error.message;
}

/**
 * The toast's headline and its detail. In Spanish: the whole refusal in Spanish when its params give the
 * specifics (no detail); else the code's generic Spanish sentence with the engine's English words as the
 * detail; else (a code the page has no Spanish for) the engine's words.
 */
export function refusalText(error: Refusal): { text: string; detail: string | null } {
  if (CONNECTION_PROBLEMS.has(error.code)) return problemText(error);
  if (lang() === 'es') {
    const whole = spanishWithParams(error);
    if (whole) return { text: t('rejected', { msg: whole }), detail: null };
    const es = ES[error.code];
    if (es) return { text: t('rejected', { msg: es }), detail: error.message };
  }
  return { text: t('rejected', { msg: error.message }), detail: null };
}
