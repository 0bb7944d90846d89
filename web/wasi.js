// wasi.js: a minimal WASI (wasi_snapshot_preview1) for the engine module (web/engine.wasm).
//
// It implements exactly the imports Go's GOOS=wasip1 runtime asks for, and nothing else: no file
// system, no preopened directories, no arguments, no environment. stdout and stderr go to a callback
// line by line. The engine has no sleeps or timers, so poll_oneoff only ever has to wait out the
// runtime's own short clock subscriptions, which it does by spinning on the clock.
//
// Works as a classic script (importScripts in a worker: sets self.ApibankWASI) and as a CommonJS
// module (Node: require('.../web/wasi.js')), so the browser and the Node tests run the same code.
(function (root) {
  "use strict";

  // errno values of wasi_snapshot_preview1.
  const ESUCCESS = 0;
  const EBADF = 8;
  const EINVAL = 28;

  // clock ids.
  const CLOCK_REALTIME = 0;

  // subscription / event types of poll_oneoff.
  const EVENTTYPE_CLOCK = 0;

  // fd_fdstat_get: filetype character device for the standard streams.
  const FILETYPE_CHARACTER_DEVICE = 2;

  /** ProcExit is thrown by proc_exit: the module asked to stop with a status code. */
  class ProcExit extends Error {
    constructor(code) {
      super("engine exited with status " + code);
      this.name = "ProcExit";
      this.code = code;
    }
  }

  function nowNs(clockId) {
    // performance.now() is monotonic with sub-millisecond resolution; the real-time clock adds the
    // page's time origin. Both as nanoseconds in a BigInt.
    const ms = clockId === CLOCK_REALTIME ? performance.timeOrigin + performance.now() : performance.now();
    return BigInt(Math.round(ms * 1e6));
  }

  /**
   * WASI holds one module instance's view of the system.
   * @param {object} [opts]
   * @param {(fd: number, line: string) => void} [opts.output] receives stdout (1) and stderr (2) lines.
   */
  class WASI {
    constructor(opts) {
      opts = opts || {};
      this.output = opts.output || ((fd, line) => (fd === 2 ? console.error : console.log)("engine:", line));
      this.instance = null;
      this.pending = { 1: "", 2: "" };
      this.decoder = new TextDecoder();
      this.wasiImport = this.imports();
    }

    /** initialize binds the instance (whose memory the calls use) and runs the reactor's _initialize. */
    initialize(instance) {
      this.instance = instance;
      instance.exports._initialize();
    }

    view() {
      return new DataView(this.instance.exports.memory.buffer);
    }

    bytes(ptr, len) {
      return new Uint8Array(this.instance.exports.memory.buffer, ptr, len);
    }

    write(fd, chunk) {
      let text = this.pending[fd] + this.decoder.decode(chunk, { stream: true });
      let nl;
      while ((nl = text.indexOf("\n")) >= 0) {
        this.output(fd, text.slice(0, nl));
        text = text.slice(nl + 1);
      }
      this.pending[fd] = text;
    }

    imports() {
      const self = this;
      return {
        // args_sizes_get(argc *u32, argv_buf_size *u32): no arguments.
        args_sizes_get(argcPtr, bufSizePtr) {
          const v = self.view();
          v.setUint32(argcPtr, 0, true);
          v.setUint32(bufSizePtr, 0, true);
          return ESUCCESS;
        },
        // args_get(argv **u8, argv_buf *u8): nothing to write.
        args_get() {
          return ESUCCESS;
        },
        // environ_sizes_get(count *u32, buf_size *u32): an empty environment.
        environ_sizes_get(countPtr, bufSizePtr) {
          const v = self.view();
          v.setUint32(countPtr, 0, true);
          v.setUint32(bufSizePtr, 0, true);
          return ESUCCESS;
        },
        environ_get() {
          return ESUCCESS;
        },
        // clock_time_get(id u32, precision u64, time *u64): nanoseconds of the real-time or monotonic clock.
        clock_time_get(id, _precision, timePtr) {
          if (id < 0 || id > 3) return EINVAL;
          self.view().setBigUint64(timePtr, nowNs(id), true);
          return ESUCCESS;
        },
        // random_get(buf *u8, len u32): crypto randomness, in the 64 KiB pieces getRandomValues allows.
        random_get(ptr, len) {
          for (let off = 0; off < len; off += 65536) {
            crypto.getRandomValues(self.bytes(ptr + off, Math.min(65536, len - off)));
          }
          return ESUCCESS;
        },
        // fd_write(fd, iovs *iovec, iovs_len, nwritten *u32): stdout and stderr only.
        fd_write(fd, iovs, iovsLen, nwrittenPtr) {
          if (fd !== 1 && fd !== 2) return EBADF;
          const v = self.view();
          let n = 0;
          for (let i = 0; i < iovsLen; i++) {
            const ptr = v.getUint32(iovs + 8 * i, true);
            const len = v.getUint32(iovs + 8 * i + 4, true);
            self.write(fd, self.bytes(ptr, len).slice());
            n += len;
          }
          self.view().setUint32(nwrittenPtr, n, true);
          return ESUCCESS;
        },
        // fd_read(fd, iovs, iovs_len, nread *u32): stdin is always at its end.
        fd_read(fd, _iovs, _iovsLen, nreadPtr) {
          if (fd !== 0) return EBADF;
          self.view().setUint32(nreadPtr, 0, true);
          return ESUCCESS;
        },
        fd_close(fd) {
          return fd <= 2 ? ESUCCESS : EBADF;
        },
        // fd_fdstat_get(fd, stat *fdstat): the standard streams are character devices.
        fd_fdstat_get(fd, statPtr) {
          if (fd > 2) return EBADF;
          const v = self.view();
          v.setUint8(statPtr, FILETYPE_CHARACTER_DEVICE);
          v.setUint16(statPtr + 2, 0, true);
          v.setBigUint64(statPtr + 8, 0xffffffffffffffffn, true);
          v.setBigUint64(statPtr + 16, 0xffffffffffffffffn, true);
          return ESUCCESS;
        },
        fd_fdstat_set_flags(fd) {
          return fd <= 2 ? ESUCCESS : EBADF;
        },
        // fd_prestat_get(fd, buf): no preopened directories; EBADF ends the runtime's scan at fd 3.
        fd_prestat_get() {
          return EBADF;
        },
        fd_prestat_dir_name() {
          return EBADF;
        },
        // poll_oneoff(in *subscription, out *event, n u32, nevents *u32): every subscription fires.
        // Clock subscriptions wait out their timeout first (the engine sets none; the runtime's are short).
        poll_oneoff(inPtr, outPtr, n, neventsPtr) {
          const v = self.view();
          let deadline = 0n;
          for (let i = 0; i < n; i++) {
            const sub = inPtr + 48 * i;
            if (v.getUint8(sub + 8) === EVENTTYPE_CLOCK) {
              const id = v.getUint32(sub + 16, true);
              const timeout = v.getBigUint64(sub + 24, true);
              const absolute = (v.getUint16(sub + 40, true) & 1) === 1;
              const at = absolute ? timeout : nowNs(id) + timeout;
              if (deadline === 0n || at < deadline) deadline = at;
            }
          }
          while (deadline !== 0n && nowNs(1) < deadline) {
            // spin: a worker has nothing else to do while the engine waits.
          }
          const w = self.view();
          for (let i = 0; i < n; i++) {
            const sub = inPtr + 48 * i;
            const ev = outPtr + 32 * i;
            w.setBigUint64(ev, w.getBigUint64(sub, true), true); // userdata
            w.setUint16(ev + 8, ESUCCESS, true); // error
            w.setUint8(ev + 10, w.getUint8(sub + 8)); // type
            w.setBigUint64(ev + 16, 0n, true); // nbytes
            w.setUint16(ev + 24, 0, true); // flags
          }
          w.setUint32(neventsPtr, n, true);
          return ESUCCESS;
        },
        // proc_exit(code): the module stops; the instance is unusable afterwards.
        proc_exit(code) {
          throw new ProcExit(code);
        },
        sched_yield() {
          return ESUCCESS;
        },
      };
    }
  }

  /**
   * Engine drives an instantiated engine module: one JSON request in, one JSON response out.
   * Requests travel through the module's memory: alloc(n), write, handle(ptr, n) -> ptr<<32|len, free.
   */
  class Engine {
    /**
     * @param {WebAssembly.Module} module the compiled web/engine.wasm
     * @param {object} [opts] passed to WASI
     */
    static async start(module, opts) {
      const wasi = new WASI(opts);
      const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport });
      wasi.initialize(instance);
      return new Engine(instance, wasi);
    }

    constructor(instance, wasi) {
      this.instance = instance;
      this.wasi = wasi;
      this.encoder = new TextEncoder();
      this.decoder = new TextDecoder();
    }

    /** handle sends one request (JSON text) and returns the response (JSON text). Throws on a trap. */
    handle(text) {
      const ex = this.instance.exports;
      const req = this.encoder.encode(text);
      const ptr = ex.alloc(req.length) >>> 0;
      new Uint8Array(ex.memory.buffer, ptr, req.length).set(req);
      // A trap throws out of here and leaves the instance unusable: the caller starts a new one.
      const packed = BigInt.asUintN(64, BigInt(ex.handle(ptr, req.length)));
      ex.free(ptr);
      const rp = Number(packed >> 32n);
      const rn = Number(packed & 0xffffffffn);
      const out = this.decoder.decode(new Uint8Array(ex.memory.buffer, rp, rn));
      ex.free(rp);
      return out;
    }

    /**
     * idle tells the engine the host has nothing to ask for now: it collects the garbage earlier
     * requests left, in this idle time, rather than in the time of a later request. Throws on a trap.
     */
    idle() {
      const ex = this.instance.exports;
      if (typeof ex.idle === "function") ex.idle(); // a module built before the export: nothing to do
    }
  }

  const api = { WASI, Engine, ProcExit };
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.ApibankWASI = api;
  }
})(typeof self !== "undefined" ? self : globalThis);
