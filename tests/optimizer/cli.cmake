# cli.cmake: fpo-gen's optimizer options: --dump-ir-after each pass (JSON with a schedule that
# --from-ir reads back), --dot, --disable-pass, and the errors of unknown passes and modes.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
function(gen expect_rc)
  execute_process(COMMAND "${GEN}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "fpo-gen ${ARGN}: exit ${rc}, expected ${expect_rc}\n${out}${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()
foreach(pass corners extent fuse column merge shrink rows kcache stream prefetch width pool)
  gen(0 -o "${DIR}/gen" --dump-ir-after ${pass} "${DIR}/${pass}.json" "${SOURCE}")
  file(READ "${DIR}/${pass}.json" json)
  string(JSON mode GET "${json}" schedule mode)
  string(JSON nblocks LENGTH "${json}" schedule blocks)
  if(NOT mode STREQUAL "fused" OR nblocks LESS 1)
    message(FATAL_ERROR "${pass}.json: schedule mode '${mode}', ${nblocks} blocks")
  endif()
  gen(0 -o "${DIR}/back_${pass}" --from-ir "${DIR}/${pass}.json")
endforeach()
# After stream: qn (written by the fused group, read by the solver) and q_out (written by the
# column group) go past the caches; nothing before it, nor with the pass off.
file(READ "${DIR}/stream.json" json)
string(JSON s0 GET "${json}" schedule blocks 0 groups 0 stream)
string(JSON s1 GET "${json}" schedule blocks 0 groups 1 stream)
file(READ "${DIR}/kcache.json" json)
string(JSON k0 GET "${json}" schedule blocks 0 groups 0 stream)
gen(0 -o "${DIR}/nostream" --disable-pass stream --dump-ir-after pool "${DIR}/nostream.json" "${SOURCE}")
file(READ "${DIR}/nostream.json" json)
string(JSON n0 GET "${json}" schedule blocks 0 groups 0 stream)
if(NOT s0 STREQUAL "[ \"qn\" ]" OR NOT s1 STREQUAL "[ \"q_out\" ]" OR NOT k0 STREQUAL "[]"
   OR NOT n0 STREQUAL "[]")
  message(FATAL_ERROR "stream: after it ${s0} ${s1}, before ${k0}, off ${n0}")
endif()
# After fuse, the first group holds the seven PARALLEL nests before the vertical solver.
file(READ "${DIR}/fuse.json" json)
string(JSON n LENGTH "${json}" schedule blocks 0 groups 0 nests)
string(JSON fused GET "${json}" schedule blocks 0 groups 0 fused)
if(NOT n EQUAL 7 OR NOT fused)
  message(FATAL_ERROR "fuse.json: first group has ${n} nests (fused: ${fused}), expected 7")
endif()
# After shrink: planes and a scalar; after extent only: still arrays.
file(READ "${DIR}/shrink.json" json)
string(FIND "${json}" "\"storage\": \"plane\"" plane)
string(FIND "${json}" "\"storage\": \"scalar\"" scalar)
string(FIND "${json}" "\"storage\": \"strip\"" strip)
file(READ "${DIR}/extent.json" json)
string(FIND "${json}" "\"storage\": \"plane\"" plane_early)
if(plane LESS 0 OR scalar LESS 0 OR strip LESS 0 OR NOT plane_early LESS 0)
  message(FATAL_ERROR "storage: plane ${plane}, scalar ${scalar} after shrink; ${plane_early} after extent")
endif()
# After rows: the first group runs its rows in a pipeline, diffuse and update (which read fy a
# row up) one row behind the fluxes; fx and fy are rings of 2 rows, and cx and cy none
# (scalars: courant and both fluxes share a loop, their points differing: pass_merge).
file(READ "${DIR}/rows.json" json)
string(JSON lag0 GET "${json}" schedule blocks 0 groups 0 nests 0 lag)
string(JSON lag6 GET "${json}" schedule blocks 0 groups 0 nests 6 lag)
string(JSON name6 GET "${json}" schedule blocks 0 groups 0 nests 6 stencil)
set(rings "")
foreach(t 0 1 2 3)
  string(JSON name GET "${json}" schedule temporaries ${t} name)
  string(JSON ring GET "${json}" schedule temporaries ${t} ring)
  string(APPEND rings "${name}:${ring} ")
endforeach()
string(JSON joined0 GET "${json}" schedule blocks 0 groups 0 joined)   # join: off by default
if(joined0 OR NOT lag0 EQUAL 0 OR NOT lag6 EQUAL 1 OR NOT name6 STREQUAL "update" OR
   NOT rings STREQUAL "cx:0 cy:0 fx:2 fy:2 ")
  message(FATAL_ERROR "rows.json: joined ${joined0}, lags ${lag0}, ${name6} ${lag6}; rings ${rings}")
endif()
# Switched off, a pass leaves no trace in the schedule: rows makes no ring, fuse no fused group.
function(without pass mark)
  gen(0 -o "${DIR}/no${pass}" --disable-pass ${pass} --dump-ir-after pool "${DIR}/no${pass}.json"
      "${SOURCE}")
  file(READ "${DIR}/no${pass}.json" json)
  string(FIND "${json}" "${mark}" any)
  if(NOT any LESS 0)
    message(FATAL_ERROR "--disable-pass ${pass}: the schedule still holds ${mark}")
  endif()
endfunction()
# Switched on (off by default), join runs the fused group with the column group: no array left.
gen(0 -o "${DIR}/join" --enable-pass join --dump-ir-after join "${DIR}/join.json" "${SOURCE}")
file(READ "${DIR}/join.json" json)
string(JSON joined GET "${json}" schedule blocks 0 groups 0 joined)
string(FIND "${json}" "\"storage\": \"array\"" array)
if(NOT joined OR NOT array LESS 0)
  message(FATAL_ERROR "join.json: joined ${joined}, an array at ${array}")
endif()
gen(2 --enable-pass rows "${SOURCE}")   # on already
if(NOT out MATCHES "needs a pass that is off by default: join\n")
  message(FATAL_ERROR "--enable-pass rows: ${out}")
endif()
without(rows "\"ring\": 2")
# After kcache: the clip (positive) runs inside the solver's BACKWARD sweep, and the solution
# qv, read there only a level behind, is a ring of 2 levels; the forward sweep's cp and dp
# (read by the BACKWARD sweep at every level) stay strips.
file(READ "${DIR}/kcache.json" json)
string(JSON ngroups LENGTH "${json}" schedule blocks 0 groups)
math(EXPR last "${ngroups} - 1")
string(JSON nnests LENGTH "${json}" schedule blocks 0 groups ${last} nests)
math(EXPR lastn "${nnests} - 1")
string(JSON clip GET "${json}" schedule blocks 0 groups ${last} nests ${lastn} stencil)
string(JSON inside GET "${json}" schedule blocks 0 groups ${last} nests ${lastn} inside)
set(krings "")
string(JSON ntemps LENGTH "${json}" schedule temporaries)
math(EXPR ntemps "${ntemps} - 1")
foreach(t RANGE ${ntemps})
  string(JSON name GET "${json}" schedule temporaries ${t} name)
  string(JSON kring GET "${json}" schedule temporaries ${t} kring)
  if(kring)
    string(APPEND krings "${name}:${kring} ")
  endif()
endforeach()
if(NOT clip STREQUAL "positive" OR NOT inside OR NOT krings STREQUAL "qv:2 ")
  message(FATAL_ERROR "kcache.json: ${clip} inside ${inside}; rings of levels ${krings}")
endif()
without(kcache "\"inside\": true")
without(kcache "\"kring\": 2")
without(fuse "\"fused\": true")
gen(0 -o "${DIR}/dot" --dot "${DIR}/chain.dot" "${SOURCE}")
file(READ "${DIR}/chain.dot" dot)
if(NOT dot MATCHES "^digraph" OR NOT dot MATCHES "fused, K outermost" OR NOT dot MATCHES "->")
  message(FATAL_ERROR "chain.dot is not the fused schedule:\n${dot}")
endif()
gen(0 -o "${DIR}/report" --report "${SOURCE}")
if(NOT out MATCHES "9 temporaries: 1 arrays \\(8 B per point\\), 2 planes .*3 strips .*3 scalars.*unfused: 9 arrays, 72 B per point\\); 2 arrays streamed")
  message(FATAL_ERROR "--report: ${out}")
endif()
# Open decides per streamed array; qn, which the solver's group reads, is streamed only when it
# does not fit the last-level cache, q_out (read by no group) from a quarter of it.
file(READ "${DIR}/report/chain_step.c" opened)
if(NOT opened MATCHES "p->stream\\[[0-9]+\\] = [^\n]*, 1\\);   /\\* qn, read by a later group \\*/" OR
   NOT opened MATCHES "p->stream\\[[0-9]+\\] = [^\n]*, 0\\);   /\\* q_out \\*/")
  message(FATAL_ERROR "chain_step.c: open's streaming choices not as expected")
endif()
# A stencil called twice (rows.fpo's diff2): each call's temporary is its own, so both fit
# one plane of the pipeline; no temporary is left an array.
gen(0 -o "${DIR}/rows_report" --report "${ROWS_SOURCE}")
if(NOT out MATCHES "3 temporaries: 0 arrays .* 3 planes")
  message(FATAL_ERROR "--report of rows.fpo: ${out}")
endif()
# The example model's step: its two copy_corners run as stencil calls (pass_corners), level by
# level inside one fused group, and every temporary is a ring of rows. Without pass_corners
# they split it into two groups; the PPM stencils are called in both, their temporaries are
# planes all the same (call by call), and the program's two temporaries that cross the groups
# (fx, fy2) stay arrays.
gen(0 -o "${DIR}/step_report" --report -p em_step "${STEP_SOURCE}")
if(NOT out MATCHES "-> 1 group .* 19 temporaries: 0 arrays .* 19 planes")
  message(FATAL_ERROR "--report of step.fpo: ${out}")
endif()
# A group whose K loop is more than about 96 KB of C puts its loops into functions of about
# that size (emit_fused.c, FN_BYTES: GCC's time on one function grows faster than the
# function), marked as run is (FPO_NARROW_: the step's pipelines are heavy on arithmetic); a
# variant of inner tiles keeps them inline.
file(READ "${DIR}/step_report/em_step.all.c" all)
file(READ "${DIR}/step_report/em_step.interior.c" inner)
string(REGEX MATCHALL "\nFPO_NARROW_\nstatic void fpo_loops[0-9]+[(]em_step [*]p, const struct fpo_views0 [*]fpo_c, const int64_t k, const int64_t fpo_r[)]"
       fns "${all}")
list(LENGTH fns nfns)
string(REGEX MATCHALL "fpo_loops[0-9]+[(]p, &fpo_c, k, fpo_r[)];" calls "${all}")
list(LENGTH calls ncalls)
if(nfns LESS 4 OR NOT ncalls EQUAL nfns OR inner MATCHES "fpo_loops")
  message(FATAL_ERROR "step.fpo: ${nfns} loop functions and ${ncalls} calls in variant all "
                      "(4 or more expected, as many calls), or some in variant interior")
endif()
# The IR after pass_corners keeps each fill statement on its stencil call and reads back to the
# same program.
gen(0 -o "${DIR}/step_direct" -p em_step --dump-ir-after corners "${DIR}/step_corners.json"
    "${STEP_SOURCE}")
file(READ "${DIR}/step_corners.json" json)
string(JSON fill_depth GET "${json}" body 1 fill depth)   # after halo_update(q): the Y fill
string(JSON fill_dir GET "${json}" body 1 fill dir)
gen(0 -o "${DIR}/step_back" --from-ir "${DIR}/step_corners.json")
if(NOT fill_depth EQUAL 3 OR NOT fill_dir STREQUAL "Y")
  message(FATAL_ERROR "step.fpo after corners: fill depth ${fill_depth} dir ${fill_dir}")
endif()
file(GLOB outs RELATIVE "${DIR}/step_direct" "${DIR}/step_direct/*")
foreach(f IN LISTS outs)   # sources, header and manifest (which counts the halo statements)
  file(READ "${DIR}/step_direct/${f}" direct)
  file(READ "${DIR}/step_back/${f}" back)
  if(NOT direct STREQUAL back)
    message(FATAL_ERROR "step.fpo after corners, read back: ${f} differs")
  endif()
endforeach()
gen(0 -o "${DIR}/step_report_nc" --report --disable-pass corners -p em_step "${STEP_SOURCE}")
if(NOT out MATCHES "-> 2 groups .* 19 temporaries: 2 arrays .* 17 planes")
  message(FATAL_ERROR "--report --disable-pass corners of step.fpo: ${out}")
endif()
# A fill of depth 8 is a stencil call; a deeper one (its stencil would hold a region for each
# of the depth^2 points of a corner block) stays the halo library's fill.
file(WRITE "${DIR}/deep.fpo" "program deep(q: field<f64>) {\n    copy_corners(q, X, depth: 8);\n"
                             "    copy_corners(q, Y, depth: 9);\n}\n")
gen(0 -o "${DIR}/deep" "${DIR}/deep.fpo")
file(READ "${DIR}/deep/deep.all.c" deep)
if(NOT deep MATCHES "copy_corners_x8" OR deep MATCHES "copy_corners_y9"
   OR NOT deep MATCHES "fpo_halo_copy_corners\\([^;]*, 9, FPO_HALO_FILL_Y")
  message(FATAL_ERROR "deep.fpo: the depth-8 fill is not a stencil or the depth-9 one is")
endif()
# After prefetch: the model step's pipeline, heavy on arithmetic (the PPM sweeps), fetches the
# rows of its five arrays ahead; the chain's, light, none; off, none; and the generated code
# holds a fetch for each array only with the pass on.
gen(0 -o "${DIR}/step_fetch" -p em_step --dump-ir-after prefetch "${DIR}/step_fetch.json"
    "${STEP_SOURCE}")
file(READ "${DIR}/step_fetch.json" json)
string(JSON f0 GET "${json}" schedule blocks 0 groups 0 prefetch)
file(READ "${DIR}/prefetch.json" json)
string(JSON c0 GET "${json}" schedule blocks 0 groups 0 prefetch)
gen(0 -o "${DIR}/step_nofetch" -p em_step --disable-pass prefetch --dump-ir-after pool
    "${DIR}/step_nofetch.json" "${STEP_SOURCE}")
file(READ "${DIR}/step_nofetch.json" json)
string(JSON n0 GET "${json}" schedule blocks 0 groups 0 prefetch)
file(READ "${DIR}/step_fetch/em_step.interior.c" c)
string(REGEX MATCHALL "fpo_fetch_row_\\(&p->f\\.[a-z]+, sizeof\\(double\\), \\(?fpo_r \\+ p->fetch_rows" fetches "${c}")
list(LENGTH fetches nfetch)
file(READ "${DIR}/step_nofetch/em_step.interior.c" c)
string(FIND "${c}" "fpo_fetch_row_(" nofetch)
if(NOT f0 STREQUAL "[ \"q\", \"crx\", \"cry\", \"xfx\", \"yfx\" ]" OR NOT c0 STREQUAL "[]" OR
   NOT n0 STREQUAL "[]" OR NOT nfetch EQUAL 5 OR NOT nofetch LESS 0)
  message(FATAL_ERROR "prefetch: step ${f0} (${nfetch} in its code, ${nofetch} off), chain ${c0}, "
                      "off ${n0}")
endif()
# After width: the model step (every pipeline heavy) prefers half-width vectors, its run
# function marked FPO_NARROW_; the chain (light) and the step with the pass off keep full width.
gen(0 -o "${DIR}/step_width" -p em_step --dump-ir-after width "${DIR}/step_width.json"
    "${STEP_SOURCE}")
file(READ "${DIR}/step_width.json" json)
string(JSON wstep GET "${json}" schedule vectors)
file(READ "${DIR}/width.json" json)
string(JSON wchain GET "${json}" schedule vectors)
file(READ "${DIR}/step_width/em_step.all.c" c)
string(FIND "${c}" "FPO_NARROW_\nfpo_status em_step__run_all(" wmark)
gen(0 -o "${DIR}/step_nowidth" -p em_step --disable-pass width "${STEP_SOURCE}")
file(READ "${DIR}/step_nowidth/em_step.all.c" c)
string(FIND "${c}" "FPO_NARROW_" wmark_off)
if(NOT wstep STREQUAL "narrow" OR NOT wchain STREQUAL "full" OR wmark LESS 0 OR
   NOT wmark_off LESS 0)
  message(FATAL_ERROR "width: step ${wstep} (mark at ${wmark}, off ${wmark_off}), chain ${wchain}")
endif()
# Selects: the whole tile's edge columns (run one point at a time) pick with fpo_pick_f64;
# the inside of a tile, all vector loops, blends with fpo_sel_f64 and never picks.
file(READ "${DIR}/step_width/em_step.all.c" c)
string(REGEX MATCHALL "fpo_pick_f64\\(" picks "${c}")
list(LENGTH picks npick_all)
file(READ "${DIR}/step_width/em_step.interior.c" c)
string(REGEX MATCHALL "fpo_pick_f64\\(" picks "${c}")
list(LENGTH picks npick_in)
string(REGEX MATCHALL "fpo_sel_f64\\(" sels "${c}")
list(LENGTH sels nsel_in)
if(npick_all LESS 1 OR NOT npick_in EQUAL 0 OR nsel_in LESS 1)
  message(FATAL_ERROR "selects: ${npick_all} picks in the whole tile's code, ${npick_in} picks "
                      "and ${nsel_in} blends inside a tile")
endif()
gen(2 --disable-pass nosuch "${SOURCE}")
# ... naming every pass it knows, in pipeline order
if(NOT out MATCHES "needs a pass: corners, extent, fuse, column, merge, shrink, rows, join, kcache, stream, prefetch, width, pool\n")
  message(FATAL_ERROR "--disable-pass nosuch: ${out}")
endif()
gen(2 --mode sideways "${SOURCE}")
# Zero cost: without --instrument, no check, clock or print is in the generated code.
file(READ "${DIR}/report/chain_step.all.c" c)   # the run body is in the variant source
foreach(what "fpo_find_nan_f64(fpo_v" "fpo_now()" "fprintf(stderr")
  string(FIND "${c}" "${what}" at)
  if(NOT at LESS 0)
    message(FATAL_ERROR "uninstrumented chain_step.c holds '${what}'")
  endif()
endforeach()
# The fused I loops are marked independent (FPO_IVDEP: nothing a loop writes is touched at an
# I offset in it); the unfused reference is not marked.
string(REGEX MATCHALL "FPO_IVDEP\n *for \\(int64_t i = " ivdep "${c}")
list(LENGTH ivdep nivdep)
gen(0 -o "${DIR}/unfused_src" --mode unfused "${SOURCE}")
file(READ "${DIR}/unfused_src/chain_step.all.c" cu)
string(FIND "${cu}" "FPO_IVDEP\n" ivdep_unfused)
if(nivdep LESS 2 OR NOT ivdep_unfused LESS 0)
  message(FATAL_ERROR "FPO_IVDEP: ${nivdep} marked I loops fused (expected 2 or more), "
                      "unfused at ${ivdep_unfused} (expected none)")
endif()
gen(0 -o "${DIR}/nan" --instrument nan "${SOURCE}")
file(READ "${DIR}/nan/chain_step.all.c" c)
# The check names the field by its .fpo name (its strides fpo_sj_NAME, fpo_sk_NAME).
if(NOT c MATCHES "fpo_find_nan_f64\\(([a-z_0-9]+), fpo_sj_([a-z_0-9]+), fpo_sk_([a-z_0-9]+),"
   OR NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2 OR NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_3)
  message(FATAL_ERROR "--instrument nan: no NaN check of a named field in chain_step.c")
endif()
gen(2 --instrument sideways "${SOURCE}")
# Levels of variable-K reads are checked with --instrument bounds only.
gen(0 -o "${DIR}/kplain" "${KCHECK_SOURCE}")
gen(0 -o "${DIR}/kbounds" --instrument bounds "${KCHECK_SOURCE}")
file(READ "${DIR}/kplain/kcheck.all.c" kp)
file(READ "${DIR}/kbounds/kcheck.all.c" kb)
string(FIND "${kp}" "fpo_klev_(" at_plain)
string(REGEX MATCHALL "fpo_klev_\\(&fpo_kout" at_bounds "${kb}")
list(LENGTH at_bounds n_bounds)
if(NOT at_plain LESS 0 OR n_bounds LESS 2)   # each read once per version of its loop
  message(FATAL_ERROR "--instrument bounds: ${n_bounds} checked reads (expected 2 or more); "
                      "uninstrumented at ${at_plain} (expected none)")
endif()
# Halo exchanges and host callbacks end a block: nothing fuses across them. The corner fills
# are stencil calls (each its own block here, between halo statements), made once per kind,
# direction and depth.
gen(0 -o "${DIR}/halo" --dump-ir-after fuse "${DIR}/halo.json" "${HALO_SOURCE}")
file(READ "${DIR}/halo.json" json)
string(JSON nb LENGTH "${json}" schedule blocks)
string(JSON n0 LENGTH "${json}" schedule blocks 0 groups 0 nests)
string(JSON vfill GET "${json}" schedule blocks 2 groups 0 nests 0 stencil)
string(JSON fill GET "${json}" schedule blocks 3 groups 0 nests 0 stencil)
if(NOT nb EQUAL 5 OR NOT n0 EQUAL 2 OR NOT vfill STREQUAL "fill_corners_d2" OR
   NOT fill STREQUAL "copy_corners_x3")
  message(FATAL_ERROR "halo_stmts: ${nb} blocks (first group ${n0} nests, fills ${vfill} "
                      "${fill}), expected 5 (2, fill_corners_d2 copy_corners_x3)")
endif()
# `at` survives the IR: halo_stmts' vertex field (its update, and its fill as a stencil call)
# reads back to the same sources; a dump without `at` reads as cells (a vertex update then
# differs), and `at: vertex` on a vector update is refused.
gen(0 -o "${DIR}/halo_direct" --dump-ir-after corners "${DIR}/halo_corners.json" "${HALO_SOURCE}")
gen(0 -o "${DIR}/halo_back" --from-ir "${DIR}/halo_corners.json")
file(GLOB outs RELATIVE "${DIR}/halo_direct" "${DIR}/halo_direct/*")
foreach(f IN LISTS outs)
  file(READ "${DIR}/halo_direct/${f}" direct)
  file(READ "${DIR}/halo_back/${f}" back)
  if(NOT direct STREQUAL back)
    message(FATAL_ERROR "halo_stmts after corners, read back: ${f} differs")
  endif()
endforeach()
file(READ "${DIR}/halo_corners.json" json)
string(REGEX REPLACE ",[ \n]*\"at\": \"[a-z]+\"" "" no_at "${json}")
file(WRITE "${DIR}/halo_no_at.json" "${no_at}")
gen(0 -o "${DIR}/halo_no_at" --from-ir "${DIR}/halo_no_at.json")
file(READ "${DIR}/halo_no_at/halo_stmts.c" no_at_c)
if(no_at STREQUAL json OR NOT no_at_c MATCHES "fpo_halo_scalar\\(fpo_hfield_\\(&p->f.w\\), FPO_HALO_CENTER")
  message(FATAL_ERROR "halo_stmts without \"at\": w is not exchanged at the cells")
endif()
string(REGEX REPLACE "(\"vector\": \"D\",[ \n]*\"depth\": 2,[ \n]*\"dir\": \"\",[ \n]*\"at\": \")cell"
       "\\1vertex" bad_at "${json}")
file(WRITE "${DIR}/halo_bad_at.json" "${bad_at}")
gen(1 -o "${DIR}/halo_bad_at" --from-ir "${DIR}/halo_bad_at.json")
if(bad_at STREQUAL json OR NOT out MATCHES "places the scalars of halo_update and copy_corners")
  message(FATAL_ERROR "at: vertex on a vector in the IR: ${out}")
endif()
gen(0 -o "${DIR}/halo_nc" --disable-pass corners --dump-ir-after fuse "${DIR}/halo_nc.json"
    "${HALO_SOURCE}")
file(READ "${DIR}/halo_nc.json" json)
string(JSON nb LENGTH "${json}" schedule blocks)
if(NOT nb EQUAL 3)
  message(FATAL_ERROR "halo_stmts --disable-pass corners: ${nb} blocks, expected 3")
endif()
