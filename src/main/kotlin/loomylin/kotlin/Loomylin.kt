package loomylin.kotlin

import loomylin.Launcher
import loomylin.Main

/** The Kotlin twin's main, for running from an IDE: the default three servers plus the backend. */
object Loomylin {
    @JvmStatic
    fun main(args: Array<String>) = Main.guard { Launcher.serve(args, "kotlin", Servers::start) }
}
