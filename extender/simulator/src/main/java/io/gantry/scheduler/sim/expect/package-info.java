/**
 * What a scenario expects the simulation to end with: the {@code expect:} block of a scenario file.
 * {@code sim.spec}'s loader binds these records from the file (rejecting names the scenario does
 * not create, with file and line), and {@code sim.report.ExpectationChecker} compares them with a
 * {@code SimulationResult}. Code that drives the simulator as a library builds them directly.
 */
package io.gantry.scheduler.sim.expect;
