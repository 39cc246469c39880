/**
 * A refused command in the chosen language. The engine explains refusals in English with the
 * specifics (which plane, which island); in Spanish the toast leads with a Spanish sentence for
 * the refusal's stable code and keeps the engine's words as the detail.
 */
import { lang, t } from './i18n.ts';

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
export function refusalWords(error: { code: string; message: string }): string {
  return (lang() === 'es' ? ES[error.code] : undefined) ?? error.message;
}

/** The toast's headline and, when it is not the engine's own sentence, the engine's words as detail. */
export function refusalText(error: { code: string; message: string }): { text: string; detail: string | null } {
  if (CONNECTION_PROBLEMS.has(error.code)) return problemText(error);
  const es = lang() === 'es' ? ES[error.code] : undefined;
  if (es) return { text: t('rejected', { msg: es }), detail: error.message };
  return { text: t('rejected', { msg: error.message }), detail: null };
}
